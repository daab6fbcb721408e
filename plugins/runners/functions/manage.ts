/**
 * Salt's `manage` runner (`salt/runners/manage.py`): which minions are up (answer a ping),
 * down (accepted but silent), connected, and at which version.
 *
 * `present`, `joined` and `alived` are the same list, as in Salt over ZeroMQ ("always
 * return 'present' for 0MQ"): the minions holding a live connection to the publisher, from
 * the master's presence snapshot (kernel/bus/presence.ts). Stock Salt minions do not
 * announce presence and are not listed there.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defineRunner, defineRunnerFunction, type RunnerContext } from '../../../kernel/index.js';
import { KeyManager, listKeys, readPresence } from '../../../kernel/services.js';
import { SALT_COMPAT_VERSION, unpackIpc } from '../../../kernel/util.js';

const pingArgs = z.object({
  tgt: z.union([z.string(), z.array(z.string())]).default('*'),
  tgt_type: z.string().default('glob'),
  timeout: z.number().positive().optional(),
  gather_job_timeout: z.number().positive().optional(),
});
type PingArgs = z.output<typeof pingArgs>;

const stateArgs = z.object({
  subset: z.union([z.string(), z.array(z.string())]).optional(),
  show_ip: z.boolean().default(false),
});
type StateArgs = z.output<typeof stateArgs>;

function str(opts: Readonly<Record<string, unknown>>, key: string): string {
  const v = opts[key];
  return typeof v === 'string' ? v : '';
}

/** Salt's `_ping`: who answered `test.ping` and who of the targeted did not, sorted. */
export async function ping(ctx: RunnerContext, a: PingArgs): Promise<{ up: string[]; down: string[] }> {
  const res = await ctx.client.cmdFull(a.tgt, 'test.ping', [], {
    tgtType: a.tgt_type,
    ...(a.timeout !== undefined && { timeout: a.timeout }),
    ...(a.gather_job_timeout !== undefined && { gatherJobTimeout: a.gather_job_timeout }),
  });
  return { up: Object.keys(res.returns).sort(), down: Object.keys(res.missing).sort() };
}

/** The first IPv4 address a minion reported in its grains (the master's minion data cache). */
async function cachedIp(cachedir: string, id: string): Promise<string> {
  try {
    const data = unpackIpc(await readFile(join(cachedir, 'minions', id, 'data.p'))) as {
      grains?: { ipv4?: unknown };
    };
    const ips = Array.isArray(data.grains?.ipv4) ? data.grains.ipv4.map(String) : [];
    return ips.find((ip) => ip !== '127.0.0.1') ?? ips[0] ?? '';
  } catch {
    return '';
  }
}

async function shaped(
  ctx: RunnerContext,
  ids: string[],
  a: StateArgs,
): Promise<string[] | Record<string, string>> {
  const subset =
    a.subset === undefined
      ? undefined
      : new Set(typeof a.subset === 'string' ? a.subset.split(',') : a.subset);
  const chosen = ids.filter((id) => !subset || subset.has(id)).sort();
  if (!a.show_ip) return chosen;
  const cachedir = str(ctx.opts, 'cachedir');
  const out: Record<string, string> = {};
  for (const id of chosen) out[id] = await cachedIp(cachedir, id);
  return out;
}

/** Connected minions (with accepted keys) from the presence snapshot. */
async function connected(ctx: RunnerContext): Promise<string[]> {
  const accepted = new Set((await listKeys(str(ctx.opts, 'pki_dir'))).minions);
  return (readPresence(str(ctx.opts, 'cachedir'))?.present ?? []).filter((id) => accepted.has(id));
}

async function notConnected(ctx: RunnerContext): Promise<string[]> {
  const present = new Set(await connected(ctx));
  return (await listKeys(str(ctx.opts, 'pki_dir'))).minions.filter((id) => !present.has(id));
}

/** Compares dotted versions numerically: -1, 0 or 1. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

const VERSION_LABELS: Record<number, string> = {
  [-2]: 'Minion offline',
  [-1]: 'Minion requires update',
  0: 'Up to date',
  1: 'Minion newer than master',
};

const present = defineRunnerFunction({
  args: stateArgs,
  doc: 'Print a list of all minions that are connected to the master (present); show_ip=True maps each to its IP.',
  run: async (ctx, a) => shaped(ctx, await connected(ctx), a),
});
const notPresent = defineRunnerFunction({
  args: stateArgs,
  doc: 'Print a list of all minions with accepted keys that are not connected to the master.',
  run: async (ctx, a) => shaped(ctx, await notConnected(ctx), a),
});

export default defineRunner({
  name: 'manage',
  doc: 'General management functions for salt, tools like seeing what hosts are up and what hosts are down.',
  functions: {
    status: defineRunnerFunction({
      args: pingArgs.extend({ output: z.boolean().default(true) }),
      doc: "Print the status of all known salt minions: {'up': [...], 'down': [...]} from a test.ping.",
      run: (ctx, a) => ping(ctx, a),
    }),
    up: defineRunnerFunction({
      args: pingArgs,
      doc: 'Print a list of all of the minions that are up (answer test.ping).',
      run: async (ctx, a) => (await ping(ctx, a)).up,
    }),
    down: defineRunnerFunction({
      args: pingArgs.extend({ removekeys: z.boolean().default(false) }),
      doc: 'Print a list of all the down or unresponsive salt minions; removekeys=True deletes their keys.',
      run: async (ctx, a) => {
        const { down } = await ping(ctx, a);
        if (a.removekeys && down.length > 0) {
          const keys = new KeyManager({
            pkiDir: str(ctx.opts, 'pki_dir'),
            cachedir: str(ctx.opts, 'cachedir'),
            rotateAesKey: ctx.opts.rotate_aes_key !== false,
            onEvent: (tag, data) => ctx.fireEvent(tag, data),
          });
          const listing = await keys.list();
          const accepted = new Set(listing.minions);
          await keys.delete(
            down.filter((id) => accepted.has(id)).map((id) => ({ id, state: 'accepted' as const })),
          );
        }
        return down;
      },
    }),
    present,
    not_present: notPresent,
    joined: present,
    not_joined: notPresent,
    alived: present,
    not_alived: notPresent,
    versions: defineRunnerFunction({
      doc: "Check the version of active minions against the master's: grouped as Up to date, Minion requires update, Minion newer than master, Minion offline.",
      run: async (ctx) => {
        const res = await ctx.client.cmdFull('*', 'test.version');
        const ret: Record<string, unknown> = {};
        const groups = new Map<number, Record<string, string | false>>();
        const add = (diff: number, id: string, v: string | false): void => {
          const g = groups.get(diff) ?? {};
          g[id] = v;
          groups.set(diff, g);
        };
        for (const [id, r] of Object.entries(res.returns)) {
          if (typeof r.return === 'string' && r.return)
            add(compareVersions(r.return, SALT_COMPAT_VERSION), id, r.return);
          else add(-2, id, false);
        }
        for (const id of Object.keys(res.missing)) add(-2, id, false);
        for (const diff of [...groups.keys()].sort()) {
          const g = groups.get(diff) ?? {};
          const label = VERSION_LABELS[diff] ?? String(diff);
          ret[label] = Object.fromEntries(
            Object.keys(g)
              .sort()
              .map((id) => [id, g[id]]),
          );
        }
        ret.Master = SALT_COMPAT_VERSION;
        return ret;
      },
    }),
  },
});
