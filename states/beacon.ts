/**
 * Salt's `beacon` state module (`salt/states/beacon.py`): a beacon present in (with its
 * settings), absent from, enabled or disabled in the running minion's beacons, through the
 * `beacons` execution module (which asks the minion's beacon manager); `save: True` writes
 * `minion.d/beacons.conf` as `beacons.save` does.
 */
import { pyFlag } from '../modules/_coerce.js';
import { cleanKwargs } from '../modules/_invalid-kwargs.js';
import { pyEquals } from '../modules/_traverse.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

type Ret = Record<string, unknown>;

const isMap = (v: unknown): v is Ret => typeof v === 'object' && v !== null && !Array.isArray(v);

async function current(ctx: StateContext, kwargs: Ret): Promise<Ret> {
  const got = await ctx.call('beacons.list', [], { ...kwargs, return_yaml: false });
  return isMap(got) ? got : {};
}

async function call(ctx: StateContext, fun: string, args: unknown[], kwargs: Ret): Promise<Ret> {
  const out = await ctx.call(fun, args, kwargs);
  return isMap(out) ? out : { result: false, comment: String(out) };
}

/** The `save` tail Salt adds to present/absent. */
async function saved(ctx: StateContext, name: string, save: boolean, comments: string[]): Promise<void> {
  if (!save) return;
  if (ctx.test) comments.push(`Beacon ${name} would be saved`);
  else {
    await ctx.call('beacons.save', []);
    comments.push(`Beacon ${name} saved`);
  }
}

/** `enabled` / `disabled`: one execution-module call on a configured beacon. */
function toggle(fun: string, done: (n: string) => string, missing: (n: string) => string, doc: string) {
  return defineState({
    args: (z) => z.object({ name: z.string() }),
    varkw: true,
    doc,
    async run(ctx, { name }, extra): Promise<StateReturn> {
      const kwargs = cleanKwargs(extra.kwargs);
      const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
      if (!(name in (await current(ctx, kwargs)))) return { ...ret, comment: missing(name) };
      if (ctx.test)
        return { ...ret, comment: String((await call(ctx, fun, [name], { ...kwargs, test: true })).comment) };
      const result = await call(ctx, fun, [name], kwargs);
      if (!result.result) return { ...ret, result: false, comment: result.comment as string };
      return { ...ret, comment: done(name) };
    },
  });
}

export default defineStateModule({
  name: 'beacon',
  doc: "Management of the Salt beacons: a beacon present, absent, enabled or disabled in the minion's beacons.",
  functions: {
    present: defineState({
      args: (z) => z.object({ name: z.string(), save: pyFlag(z, false) }),
      varkw: true,
      doc: 'Ensure beacon is configured with the included beacon data (its settings as keyword arguments).',
      async run(ctx, { name, save }, extra): Promise<StateReturn> {
        const kwargs = cleanKwargs(extra.kwargs);
        const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
        const comments: string[] = [];
        const beacons = await current(ctx, kwargs);
        const data = Object.entries(kwargs).map(([k, v]) => ({ [k]: v }));
        if (name in beacons) {
          if (pyEquals(data, beacons[name])) comments.push(`Job ${name} in correct state`);
          else if (ctx.test) {
            const result = await call(ctx, 'beacons.modify', [name, data], { ...kwargs, test: true });
            comments.push(String(result.comment));
            ret.changes = isMap(result.changes) ? result.changes : {};
          } else {
            const result = await call(ctx, 'beacons.modify', [name, data], kwargs);
            if (!result.result) return { ...ret, result: false, comment: result.comment as string };
            if ('changes' in result) {
              comments.push(`Modifying ${name} in beacons`);
              ret.changes = isMap(result.changes) ? result.changes : {};
            } else comments.push(String(result.comment));
          }
        } else if (ctx.test) {
          comments.push(
            String((await call(ctx, 'beacons.add', [name, data], { ...kwargs, test: true })).comment),
          );
        } else {
          const result = await call(ctx, 'beacons.add', [name, data], kwargs);
          if (!result.result) return { ...ret, result: false, comment: result.comment as string };
          comments.push(`Adding ${name} to beacons`);
        }
        await saved(ctx, name, save, comments);
        return { ...ret, comment: comments.join('\n') };
      },
    }),
    absent: defineState({
      args: (z) => z.object({ name: z.string(), save: pyFlag(z, false) }),
      varkw: true,
      doc: 'Ensure beacon is absent.',
      async run(ctx, { name, save }, extra): Promise<StateReturn> {
        const kwargs = cleanKwargs(extra.kwargs);
        const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
        const comments: string[] = [];
        if (name in (await current(ctx, kwargs))) {
          if (ctx.test) {
            comments.push(
              String((await call(ctx, 'beacons.delete', [name], { ...kwargs, test: true })).comment),
            );
          } else {
            const result = await call(ctx, 'beacons.delete', [name], kwargs);
            if (!result.result) return { ...ret, result: false, comment: result.comment as string };
            comments.push(`Removed ${name} from beacons`);
          }
        } else comments.push(`${name} not configured in beacons`);
        await saved(ctx, name, save, comments);
        return { ...ret, comment: comments.join('\n') };
      },
    }),
    enabled: toggle(
      'beacons.enable_beacon',
      (n) => `Enabled ${n} from beacons`,
      (n) => `${n} not a configured beacon`,
      'Enable a beacon.',
    ),
    disabled: toggle(
      'beacons.disable_beacon',
      (n) => `Disabled beacon ${n}.`,
      (n) => `Job ${n} is not configured.`,
      'Disable a beacon.',
    ),
  },
});
