/**
 * Salt's `ethtool` execution module (`salt/modules/ethtool.py`): a network device's rings,
 * interrupt coalescing, driver, offloads, pause parameters and features, read and changed with
 * the `ethtool` program (Salt reads the first four through the python-ethtool library).
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyRepr, pyStr } from '../kernel/python/index.js';
import {
  COALESCE_SET,
  featureState,
  parseCoalesce,
  parseDriver,
  parseRing,
  RING_SET,
} from './_ethtool-parse.js';
import { which } from './_which.js';

type RunAll = { retcode: number; stdout: string; stderr: string };

function program(): string {
  const found = which('ethtool');
  if (!found) throw new SALT_ERR_EXEC_COMMAND("Command 'ethtool' cannot be found");
  return found;
}

async function runAll(ctx: ExecContext, argv: readonly string[]): Promise<RunAll> {
  return (await ctx.call('cmd.run_all', [argv], { python_shell: false, ignore_retcode: true })) as RunAll;
}

/** Salt's `_ethtool_command`: the program's merged output lines; a `Cannot ...` first line is an error. */
async function command(
  ctx: ExecContext,
  dev: string,
  switches: readonly string[],
  params: Readonly<Record<string, unknown>> = {},
): Promise<string[]> {
  const argv = [program(), ...switches, dev];
  for (const [k, v] of Object.entries(params)) argv.push(k, pyStr(v));
  const out = (await ctx.call('cmd.run', [argv], { python_shell: false, ignore_retcode: true })) as string;
  const lines = out.split(/\r\n|\r|\n/);
  if (out === '' || (lines.length > 0 && lines[lines.length - 1] === '')) lines.pop();
  if (lines[0]?.startsWith('Cannot')) throw new SALT_ERR_EXEC_COMMAND(lines[0]);
  return lines;
}

const devArg = (z: typeof import('zod').z) => z.object({ devname: z.unknown().transform(pyStr) });

async function showRing(ctx: ExecContext, dev: string): Promise<Record<string, number> | string> {
  const r = await runAll(ctx, [program(), '-g', dev]);
  return r.retcode === 0 ? parseRing(r.stdout) : 'Not supported';
}

async function showCoalesce(ctx: ExecContext, dev: string): Promise<Record<string, number> | string> {
  const r = await runAll(ctx, [program(), '-c', dev]);
  return r.retcode === 0 ? parseCoalesce(r.stdout) : 'Not supported';
}

async function showOffload(ctx: ExecContext, dev: string): Promise<Record<string, string>> {
  const r = await runAll(ctx, [program(), '-k', dev]);
  const state = (name: string): string =>
    (r.retcode === 0 ? featureState(r.stdout, name) : undefined) ?? 'not supported';
  return {
    scatter_gather: state('tx-scatter-gather'),
    tcp_segmentation_offload: state('tcp-segmentation-offload'),
    udp_fragmentation_offload: state('udp-fragmentation-offload'),
    generic_segmentation_offload: state('generic-segmentation-offload'),
  };
}

/**
 * Salt's `set_ring`/`set_coalesce`: the settings that differ from the current ones are changed
 * (`ethtool -G`/`-C`), then the new state is returned.
 */
async function setValues(
  ctx: ExecContext,
  dev: string,
  kwargs: Readonly<Record<string, unknown>>,
  kind: 'ring' | 'coalesce',
): Promise<Record<string, number> | string> {
  const current = kind === 'ring' ? await showRing(ctx, dev) : await showCoalesce(ctx, dev);
  if (typeof current === 'string') return current;
  const words: Readonly<Record<string, string | undefined>> = kind === 'ring' ? RING_SET : COALESCE_SET;
  const change: string[] = [];
  let changed = false;
  for (const [param, value] of Object.entries(kwargs)) {
    if (!(param in words) || !(param in current) || current[param] === value) continue;
    changed = true;
    const word = words[param];
    if (word === undefined) continue;
    const shown = word.startsWith('adaptive')
      ? value === 1 || value === true || value === 'on'
        ? 'on'
        : 'off'
      : pyStr(value);
    change.push(word, shown);
  }
  if (changed && change.length > 0) {
    const r = await runAll(ctx, [program(), kind === 'ring' ? '-G' : '-C', dev, ...change]);
    if (r.retcode !== 0) {
      ctx.log.error(`Invalid ${kind} arguments on ${dev}`);
      return 'Invalid arguments';
    }
  }
  return kind === 'ring' ? showRing(ctx, dev) : showCoalesce(ctx, dev);
}

/** Salt's `_validate_params`: the known keywords (lower-cased), booleans as on/off. */
function validParams(
  valid: readonly string[],
  kwargs: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(kwargs)) {
    const key = k.toLowerCase();
    if (valid.includes(key)) out[key] = v === true ? 'on' : v === false ? 'off' : v;
  }
  if (Object.keys(out).length === 0)
    throw new SALT_ERR_EXEC_COMMAND(`None of the valid parameters were provided: ${pyRepr([...valid])}`);
  return out;
}

const FEATURES = [
  'rx',
  'tx',
  'sg',
  'tso',
  'ufo',
  'gso',
  'gro',
  'lro',
  'rxvlan',
  'txvlan',
  'ntuple',
  'rxhash',
];

export default defineModule({
  name: 'ethtool',
  doc: "Query and change a network device's ethtool settings: rings, coalescing, driver, offloads, pause and features.",
  virtual: () =>
    which('ethtool')
      ? true
      : { ok: false, reason: 'The ethtool module could not be loaded: the ethtool program was not found.' },
  functions: {
    show_ring: defineFunction({
      args: devArg,
      doc: "Queries the specified network device for rx/tx ring parameter information\n\nCLI Example: salt '*' ethtool.show_ring <devname>",
      run: (ctx, a) => showRing(ctx, a.devname),
    }),
    show_coalesce: defineFunction({
      args: devArg,
      doc: "Queries the specified network device for coalescing information\n\nCLI Example: salt '*' ethtool.show_coalesce <devname>",
      run: (ctx, a) => showCoalesce(ctx, a.devname),
    }),
    show_driver: defineFunction({
      args: devArg,
      doc: "Queries the specified network device for associated driver information\n\nCLI Example: salt '*' ethtool.show_driver <devname>",
      run: async (ctx, a) => {
        const r = await runAll(ctx, [program(), '-i', a.devname]);
        return (r.retcode === 0 ? parseDriver(r.stdout) : undefined) ?? 'Not implemented';
      },
    }),
    set_ring: defineFunction({
      args: devArg,
      varkw: true,
      doc: "Changes the rx/tx ring parameters of the specified network device\n\nCLI Example: salt '*' ethtool.set_ring <devname> [rx=N] [rx_mini=N] [rx_jumbo=N] [tx=N]",
      run: (ctx, a, extra) => setValues(ctx, a.devname, extra.kwargs, 'ring'),
    }),
    set_coalesce: defineFunction({
      args: devArg,
      varkw: true,
      doc: "Changes the coalescing settings of the specified network device\n\nCLI Example: salt '*' ethtool.set_coalesce <devname> [adaptive_rx=on|off] [rx_usecs=N] ...",
      run: (ctx, a, extra) => setValues(ctx, a.devname, extra.kwargs, 'coalesce'),
    }),
    show_offload: defineFunction({
      args: devArg,
      doc: "Queries the specified network device for the state of protocol offload and other features\n\nCLI Example: salt '*' ethtool.show_offload <devname>",
      run: (ctx, a) => showOffload(ctx, a.devname),
    }),
    set_offload: defineFunction({
      args: devArg,
      varkw: true,
      doc: "Changes the offload parameters and other features of the specified network device\n\nCLI Example: salt '*' ethtool.set_offload <devname> tcp_segmentation_offload=on",
      run: async (ctx, a, extra) => {
        for (const [param, value] of Object.entries(extra.kwargs)) {
          if (param !== 'tcp_segmentation_offload') continue;
          const r = await runAll(ctx, [program(), '-K', a.devname, 'tso', value === 'on' ? 'on' : 'off']);
          if (r.retcode !== 0 && !/Could not change any device features/.test(r.stdout + r.stderr))
            return 'Not supported';
        }
        return showOffload(ctx, a.devname);
      },
    }),
    show_pause: defineFunction({
      args: devArg,
      doc: "Queries the specified network device for associated pause information\n\nCLI Example: salt '*' ethtool.show_pause <devname>",
      run: async (ctx, a) => {
        const data: Record<string, boolean> = {};
        for (const line of (await command(ctx, a.devname, ['-a'])).slice(1)) {
          if (!line.trim()) continue;
          const cut = line.indexOf(':');
          if (cut < 0) throw new Error('not enough values to unpack (expected 2, got 1)');
          data[line.slice(0, cut).trim()] = line.slice(cut + 1).trim() === 'on';
        }
        return data;
      },
    }),
    set_pause: defineFunction({
      args: devArg,
      varkw: true,
      doc: "Changes the pause parameters of the specified network device\n\nCLI Example: salt '*' ethtool.set_pause <devname> autoneg=off rx=off tx=off",
      run: async (ctx, a, extra) => {
        const ret = await command(ctx, a.devname, ['-A'], validParams(['autoneg', 'rx', 'tx'], extra.kwargs));
        return ret.length === 0 ? true : ret;
      },
    }),
    show_features: defineFunction({
      args: devArg,
      doc: "Queries the specified network device for associated feature information\n\nCLI Example: salt '*' ethtool.show_features <devname>",
      run: async (ctx, a) => {
        const data: Record<string, { on: boolean; fixed: boolean }> = {};
        for (const line of (await command(ctx, a.devname, ['-k'])).slice(1)) {
          const cut = line.indexOf(':');
          if (cut < 0) continue;
          const t = line.trim();
          const at = t.indexOf(':');
          const key = t.slice(0, at).trim();
          let value = t.slice(at + 1).trim();
          const fixed = value.includes('fixed');
          if (fixed) value = (value.split(/\s+/)[0] ?? '').trim();
          data[key] = { on: value === 'on', fixed };
        }
        return data;
      },
    }),
    set_feature: defineFunction({
      args: devArg,
      varkw: true,
      doc: "Changes the feature parameters of the specified network device\n\nCLI Example: salt '*' ethtool.set_feature <devname> sg=off",
      run: async (ctx, a, extra) => {
        const ret = await command(ctx, a.devname, ['-K'], validParams(FEATURES, extra.kwargs));
        return ret.length === 0 ? true : ret.join('\n');
      },
    }),
  },
});
