/**
 * Salt's `beacons` execution module, managing side (`add`, `modify`, `delete`, `enable`,
 * `disable`, `enable_beacon`, `disable_beacon`, `save`, `reset`): each asks the running minion
 * (modules/_beacons-manage.ts) and answers Salt's return dict and comments; `test=True` answers
 * what would be done and changes nothing.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { z as Zod } from 'zod';
import { defineFunction, type ExecContext } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { manageBeacons, noAnswer, type Ret } from './_beacons-manage.js';
import { unifiedDiff } from './_file-diff.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { isMapping } from './_traverse.js';
import { pyYamlDump } from './_yaml-dump.js';

type Kw = Record<string, unknown>;
const isTest = (ctx: ExecContext, kw: Kw) => kw.test === true || kw.test === 'True' || ctx.opts.test === true;
const configMap = (v: unknown): Ret =>
  Array.isArray(v) ? Object.assign({}, ...v.filter(isMapping)) : isMapping(v) ? { ...v } : {};

/**
 * Salt's `beacons.modify` diff: a unified diff of the old and new settings as `key:value` lines
 * (each item of the beacon's list of one-key maps, the value as Python's `str`).
 */
function settingsDiff(current: unknown, next: unknown): string {
  const lines = (items: unknown) =>
    (Array.isArray(items) ? items : []).flatMap((item) =>
      isMapping(item) ? Object.entries(item).map(([k, v]) => `${k}:${pyStr(v)}\n`) : [],
    );
  return unifiedDiff(lines(current), lines(next));
}

/** The beacons the running minion has (else its config's), as Salt's `list_(return_yaml=False)`. */
export async function currentBeacons(ctx: ExecContext): Promise<Ret> {
  const answer = await manageBeacons(ctx, { func: 'list' });
  if (answer?.complete && isMapping(answer.beacons)) return { ...answer.beacons };
  return isMapping(ctx.opts.beacons) ? structuredClone(ctx.opts.beacons) : {};
}

async function validated(
  ctx: ExecContext,
  name: string,
  data: unknown,
  verb: string,
): Promise<Ret | undefined> {
  const v = await manageBeacons(ctx, { func: 'validate_beacon', name, beacon_data: data });
  if (!v) return { result: false, comment: 'Event module not available. Beacon validation failed.' };
  if (v.valid) return undefined;
  return {
    result: false,
    comment: `Beacon ${name} configuration invalid, not ${verb}.\n${String(v.vcomment)}`,
  };
}

const nameArgs = (z: typeof Zod) =>
  z.object({ name: z.string().nullable().default(null), beacon_data: z.unknown().optional() });

export function manageFunctions(available: (ctx: ExecContext) => Promise<string[]>) {
  return {
    add: defineFunction({
      args: nameArgs,
      varkw: true,
      doc: "Add a beacon on the minion: beacons.add ps \"[{'processes': {'salt-master': 'stopped'}}]\"",
      run: async (ctx, { name: n, beacon_data }, extra) => {
        const name = n ?? '';
        const kw = cleanKwargs(extra.kwargs);
        if (name in (await currentBeacons(ctx)))
          return { comment: `Beacon ${name} is already configured.`, result: true };
        const module = configMap(beacon_data).beacon_module;
        const beaconName = typeof module === 'string' ? module : name;
        if (!(await available(ctx)).includes(beaconName))
          return { comment: `Beacon "${beaconName}" is not available.`, result: false };
        if (isTest(ctx, kw)) return { comment: `Beacon: ${name} would be added.`, result: true };
        const bad = await validated(ctx, name, beacon_data, 'adding');
        if (bad) return bad;
        const answer = await manageBeacons(ctx, { func: 'add', name, beacon_data });
        if (!answer) return { comment: noAnswer('beacon add', kw.timeout), result: false };
        if (!answer.complete) return { comment: answer.comment, result: false };
        return { comment: `Added beacon: ${name}.`, result: true };
      },
    }),
    modify: defineFunction({
      args: nameArgs,
      varkw: true,
      doc: "Modify an existing beacon: beacons.modify ps \"[{'salt-master': 'stopped'}]\"",
      run: async (ctx, { name: n, beacon_data }, extra) => {
        const name = n ?? '';
        const kw = cleanKwargs(extra.kwargs);
        const beacons = await currentBeacons(ctx);
        if (!(name in beacons)) return { comment: `Beacon ${name} is not configured.`, result: true };
        if (isTest(ctx, kw)) return { comment: `Beacon: ${name} would be modified.`, result: true };
        const bad = await validated(ctx, name, beacon_data, 'modifying');
        if (bad) return bad;
        if (JSON.stringify(beacons[name]) === JSON.stringify(beacon_data))
          return { comment: `Job ${name} in correct state`, result: true };
        const changes = { diff: settingsDiff(beacons[name], beacon_data) };
        const answer = await manageBeacons(ctx, { func: 'modify', name, beacon_data });
        if (!answer) return { comment: noAnswer('beacon modify', kw.timeout), result: false, changes };
        if (!answer.complete) return { comment: answer.comment, result: false, changes };
        return { comment: `Modified beacon: ${name}.`, result: true, changes };
      },
    }),
    delete: defineFunction({
      args: nameArgs,
      varkw: true,
      doc: 'Delete a beacon item: beacons.delete ps',
      run: async (ctx, { name: n }, extra) => {
        const name = n ?? '';
        const kw = cleanKwargs(extra.kwargs);
        if (isTest(ctx, kw)) return { comment: `Beacon: ${name} would be deleted.`, result: true };
        const answer = await manageBeacons(ctx, { func: 'delete', name });
        if (!answer) return { comment: noAnswer('beacon delete', kw.timeout), result: false };
        if (!answer.complete) return { comment: answer.comment, result: false };
        if (isMapping(answer.beacons) && name in answer.beacons)
          return { comment: `Failed to delete beacon ${name}.`, result: false };
        return { comment: `Deleted beacon: ${name}.`, result: true };
      },
    }),
    enable: all('enable', 'enabled'),
    disable: all('disable', 'disabled'),
    enable_beacon: one('enable_beacon', 'enabled', true),
    disable_beacon: one('disable_beacon', 'disabled', false),
    reset: defineFunction({
      args: (z) => z.object({}),
      varkw: true,
      doc: 'Reset the beacon configuration on the minion: beacons.reset',
      run: async (ctx, _a, extra) => {
        const kw = cleanKwargs(extra.kwargs);
        if (isTest(ctx, kw)) return { comment: 'Beacons would be reset.', result: true };
        const answer = await manageBeacons(ctx, { func: 'reset' });
        if (!answer) return { comment: noAnswer('beacon reset', kw.timeout), result: false };
        return { comment: 'Beacon configuration reset.', result: true };
      },
    }),
    save: defineFunction({
      args: (z) => z.object({}),
      varkw: true,
      doc: 'Save all configured beacons to <config_dir>/minion.d/beacons.conf: beacons.save',
      run: async (ctx) => {
        const beacons = await currentBeacons(ctx);
        const conf = typeof ctx.opts.conf_file === 'string' ? ctx.opts.conf_file : '/etc/salt/minion';
        const include =
          typeof ctx.opts.default_include === 'string' ? ctx.opts.default_include : 'minion.d/*.conf';
        const sfn = join(dirname(conf), dirname(include), 'beacons.conf');
        try {
          await writeFile(sfn, Object.keys(beacons).length ? pyYamlDump({ beacons }) : '');
          return { comment: `Beacons saved to ${sfn}.`, result: true };
        } catch {
          return { comment: `Unable to write to beacons file at ${sfn}. Check permissions.`, result: false };
        }
      },
    }),
  };
}

function all(func: 'enable' | 'disable', done: string) {
  const word = func === 'enable' ? 'Enable' : 'Disable';
  return defineFunction({
    args: (z) => z.object({}),
    varkw: true,
    doc: `${word} all beacons on the minion: beacons.${func}`,
    run: async (ctx, _a, extra) => {
      const kw = cleanKwargs(extra.kwargs);
      if (isTest(ctx, kw)) return { comment: `Beacons would be ${done}.`, result: true };
      const answer = await manageBeacons(ctx, { func });
      if (!answer) return { comment: noAnswer(`beacon ${done}`, kw.timeout), result: false };
      const ok = isMapping(answer.beacons) && answer.beacons.enabled === (func === 'enable');
      return ok
        ? { comment: `${word}d beacons on minion.`, result: true }
        : { comment: `Failed to ${func} beacons on minion.`, result: false };
    },
  });
}

function one(func: 'enable_beacon' | 'disable_beacon', done: string, enabled: boolean) {
  const word = enabled ? 'Enable' : 'Disable';
  return defineFunction({
    args: (z) => z.object({ name: z.string().nullable().default(null) }),
    varkw: true,
    doc: `${word} a beacon on the minion: beacons.${func} ps`,
    run: async (ctx, { name }, extra) => {
      const kw = cleanKwargs(extra.kwargs);
      if (!name) return { comment: 'Beacon name is required.', result: false };
      // Salt's disable_beacon test answer names no beacon; enable_beacon's does
      if (isTest(ctx, kw))
        return {
          comment: enabled ? `Beacon ${name} would be enabled.` : 'Beacons would be disabled.',
          result: true,
        };
      if (!(name in (await currentBeacons(ctx))))
        return { comment: `Beacon ${name} is not currently configured.`, result: false };
      const answer = await manageBeacons(ctx, { func, name });
      if (!answer) return { comment: noAnswer(`beacon ${done}`, kw.timeout), result: false };
      if (!answer.complete) return { comment: answer.comment, result: false };
      const cfg = isMapping(answer.beacons) ? configMap(answer.beacons[name]) : {};
      if (cfg.enabled === enabled) return { comment: `${word}d beacon ${name} on minion.`, result: true };
      return {
        comment: enabled
          ? `Failed to enable beacon ${name} on minion.`
          : 'Failed to disable beacon on minion.',
        result: false,
      };
    },
  });
}
