/**
 * Salt's `devinfo` execution module (`salt/modules/devinfo.py`): the disks whose udev
 * information matches (or does not match) given keys, and `hwinfo`'s hardware report
 * with the grains Salt adds for the BIOS, memory and network.
 */
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { parseHwinfoFull, parseHwinfoShort } from './_hwinfo-parse.js';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const cli = (ex: string): string => `\n\nCLI Example:\n\n    ${ex}`;

/** The udev value a dotted lower-case key names (`e.id_bus` → `E.ID_BUS`), 'n/a' when none. */
function udevValue(info: unknown, key: string): unknown {
  const dot = key.indexOf('.');
  const [k, rest] = dot < 0 ? [key, ''] : [key.slice(0, dot), key.slice(dot + 1)];
  if (!k) return info;
  if (!isRec(info)) return 'n/a';
  if (!rest) return info[k.toUpperCase()] ?? 'n/a';
  return udevValue(info[k.toUpperCase()] ?? {}, rest);
}

/** Whether every key of `want` shares a value with the device's udev information. */
function matches(ctx: ExecContext, info: unknown, want: Rec): boolean {
  let res = true;
  for (const [key, value] of Object.entries(want)) {
    const got = udevValue(info, key);
    if (isRec(got)) {
      ctx.log.warn(`The key ${key} for the udev information dictionary is not a leaf element`);
      continue;
    }
    const a = Array.isArray(value) ? value : [value];
    const b = Array.isArray(got) ? got : [got];
    res = res && a.some((x) => b.includes(x));
  }
  return res;
}

async function filterDevices(ctx: ExecContext, udevIn: unknown, udevEx: unknown): Promise<string[]> {
  const inc = pyTruthy(udevIn) ? (udevIn as Rec) : {};
  const exc = pyTruthy(udevEx) ? (udevEx as Rec) : {};
  const disks = (ctx.grains.disks as string[] | undefined) ?? [];
  const info: Rec = {};
  for (const d of disks) info[d] = await ctx.call('udev.info', [d]);
  const excluded = new Set(Object.keys(exc).length ? disks.filter((d) => matches(ctx, info[d], exc)) : []);
  return [...new Set(disks.filter((d) => matches(ctx, info[d], inc) && !excluded.has(d)))].sort();
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

async function hwinfo(
  ctx: ExecContext,
  a: { items: unknown; short: unknown; listmd: unknown; devices: unknown },
) {
  const items = pyTruthy(a.items)
    ? asList(a.items)
    : ['bios', 'cpu', 'disk', 'memory', 'network', 'partition'];
  const devices = pyTruthy(a.devices) ? asList(a.devices) : [];
  const short = pyTruthy(a.short);
  const cmd = ['hwinfo', ...items.map((i) => `--${String(i)}`)];
  if (short) cmd.push('--short');
  if (pyTruthy(a.listmd)) cmd.push('--listmd');
  for (const d of devices) cmd.push(`--only ${String(d)}`);
  const out = String(await ctx.call('cmd.run_stdout', [cmd]));
  const g = ctx.grains;
  const result: Rec = {
    hwinfo: short
      ? parseHwinfoShort(out, (line) => ctx.log.error(`Error parsing hwinfo short output: ${line}`))
      : parseHwinfoFull(out),
  };
  if (items.includes('bios')) result['bios grains'] = { efi: g.efi, 'efi-secure-boot': g['efi-secure-boot'] };
  if (items.includes('memory')) result['memory grains'] = { mem_total: g.mem_total };
  if (items.includes('network'))
    result['network grains'] = {
      fqdn: g.fqdn,
      ip_interfaces: g.ip_interfaces,
      ...(short ? {} : { dns: g.dns }),
    };
  return result;
}

export default defineModule({
  name: 'devinfo',
  doc: 'Module for devinfo: devices by their udev information, and hwinfo reports.',
  functions: {
    filter: defineFunction({
      pyName: 'filter_',
      args: (z) => z.object({ udev_in: z.unknown().default(null), udev_ex: z.unknown().default(null) }),
      doc: `Returns a list of devices, filtered under udev keys. udev_in: key:values the device's udev information must have; udev_ex: key:values it must not have. A key is a lower case, dot-joined path in the udev information ('e.id_bus' is udev['E']['ID_BUS']); where the entry is a list, one shared item matches.${cli(`salt '*' devinfo.filter udev_in='{"e.id_bus": "ata"}'`)}`,
      run: (ctx, a) => filterDevices(ctx, a.udev_in, a.udev_ex),
    }),
    hwinfo: defineFunction({
      args: (z) =>
        z.object({
          items: z.unknown().default(null),
          short: z.unknown().default(true),
          listmd: z.unknown().default(false),
          devices: z.unknown().default(null),
        }),
      doc: `Probe for hardware. items: the hardware to inspect (default bios, cpu, disk, memory, network, partition); short: only a summary (default True); listmd: report RAID devices; devices: the devices to report on.${cli(`salt '*' devinfo.hwinfo items='["disk"]' short=no`)}`,
      run: (ctx, a) => hwinfo(ctx, a),
    }),
  },
});
