/**
 * The systemd backend of the `service` module (Salt's `salt/modules/systemd_service.py`, its
 * common functions): `systemctl` to list, query, start, stop, enable and mask units. Chosen
 * when systemd is PID 1 (/run/systemd/system exists, Salt's `salt.utils.systemd.booted`), and
 * for the functions Salt's "offline" mode serves when systemctl is installed without systemd
 * running. The PID 1 path is not tested on this project's machines, whose PID 1 is not systemd.
 */
import { accessSync, constants, existsSync, lstatSync, readdirSync } from 'node:fs';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { type ExecResult, execCommand } from './_pkg-exec.js';
import { which } from './_which.js';

const UNIT_TYPES = ['service', 'socket', 'device', 'mount', 'automount', 'swap', 'target', 'path', 'timer'];

/** Whether systemd is running (Salt's `salt.utils.systemd.booted`). */
export function systemdBooted(): boolean {
  return existsSync('/run/systemd/system');
}

/** Salt's `salt.utils.systemd.offline`: systemctl installed, systemd not running. */
export function offline(): boolean {
  return !systemdBooted() && which('systemctl') !== null;
}

/** stdout and stderr as one text, as Salt's `cmd.run` (stderr redirected) gives it. */
export function merged(out: ExecResult): string {
  return [out.stdout, out.stderr].filter(Boolean).join('\n');
}

/** Salt's `salt.utils.itertools.split(text, "\n")`: the lines, no trailing empty one. */
function lines(text: string): string[] {
  const ret = text.split('\n');
  if (ret[ret.length - 1] === '') ret.pop();
  return ret;
}

/** Whether /etc/systemd/system/<unit> can be read (a mask's link to /dev/null can). */
export function localUnitReadable(name: string): boolean {
  try {
    accessSync(`/etc/systemd/system/${unitName(name)}`, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether `systemctl status` asks for a daemon-reload (Salt's `_unit_file_changed`). */
export async function unitFileChanged(ctx: ExecContext, name: string): Promise<boolean> {
  const out = await systemctl(ctx, 'status', unitName(name), '-n', '0');
  return merged(out).toLowerCase().includes("'systemctl daemon-reload'");
}

/** `name` as a unit name: `.service` added unless it has a unit suffix. */
export function unitName(name: string): string {
  return /\.(service|socket|device|mount|automount|swap|target|path|timer|slice|scope)$/.test(name)
    ? name
    : `${name}.service`;
}

/** Runs `systemctl args...`. */
export function systemctl(ctx: ExecContext | null, ...args: string[]): Promise<ExecResult> {
  return execCommand(['systemctl', ...args], ctx ? { signal: ctx.signal } : {});
}

function serviceNames(out: string): Set<string> {
  const ret = new Set<string>();
  for (const line of out.split('\n')) {
    const first = line.trim().split(/\s+/)[0] ?? '';
    if (first.endsWith('.service') && !first.endsWith('@.service'))
      ret.add(first.slice(0, -'.service'.length));
  }
  return ret;
}

/** Every service unit, loaded or installed. */
export async function getAll(): Promise<string[]> {
  const files = await systemctl(
    null,
    'list-unit-files',
    '--full',
    '--no-legend',
    '--no-pager',
    '--type=service',
  );
  const units = await systemctl(
    null,
    'list-units',
    '--full',
    '--all',
    '--no-legend',
    '--no-pager',
    '--type=service',
  );
  return [...new Set([...serviceNames(files.stdout), ...serviceNames(units.stdout)])].sort();
}

/** The services whose unit file state is `enabled` (or `disabled`). */
export async function getByState(state: 'enabled' | 'disabled'): Promise<string[]> {
  const out = await systemctl(
    null,
    'list-unit-files',
    '--full',
    '--no-legend',
    '--no-pager',
    '--type=service',
  );
  const ret: string[] = [];
  for (const line of out.stdout.split('\n')) {
    const [unit = '', st = ''] = line.trim().split(/\s+/);
    if (unit.endsWith('.service') && st === state) ret.push(unit.slice(0, -'.service'.length));
  }
  return ret.sort();
}

/** `systemctl is-active`. */
export async function isActive(ctx: ExecContext, name: string): Promise<boolean> {
  return (await systemctl(ctx, 'is-active', unitName(name))).retcode === 0;
}

/** `systemctl is-enabled`. */
export async function isEnabled(ctx: ExecContext, name: string): Promise<boolean> {
  return (await systemctl(ctx, 'is-enabled', unitName(name))).retcode === 0;
}

/** Whether the unit is masked (`runtime`: masked under /run only). */
export async function isMasked(ctx: ExecContext, name: string, runtime: boolean): Promise<boolean> {
  const out = (await systemctl(ctx, 'is-enabled', unitName(name))).stdout.trim();
  return runtime ? out === 'masked-runtime' : out === 'masked' || out === 'masked-runtime';
}

/** `systemctl <action> [--runtime] <unit>`: true when it exits 0. */
export async function act(ctx: ExecContext, action: string, name: string, runtime = false): Promise<boolean> {
  const args = runtime ? [action, '--runtime', unitName(name)] : [action, unitName(name)];
  return (await systemctl(ctx, ...args)).retcode === 0;
}

/**
 * `systemctl show <unit>` as Salt's `service.show` reads it: `{...}` values as maps, Before,
 * After and Wants as lists, the rest as text; a line without `=` (an error) is a key with ''.
 */
export async function show(ctx: ExecContext, name: string): Promise<Record<string, unknown>> {
  const ret: Record<string, unknown> = {};
  for (const line of lines(merged(await systemctl(ctx, 'show', unitName(name))))) {
    const [key = '', ...rest] = line.split('=');
    const value = rest.join('=');
    if (value.startsWith('{')) {
      const map: Record<string, string> = {};
      for (const item of value.replace(/[{}]/g, '').split(' ; ')) {
        const [k = '', v = ''] = item.split('=');
        map[k.trim()] = v.trim();
      }
      ret[key] = map;
    } else if (['Before', 'After', 'Wants'].includes(key)) ret[key] = value.split(/\s+/).filter(Boolean);
    else ret[key] = value;
  }
  return ret;
}

/** Salt's `get_static`: the unit files whose state is `static`, services without `.service`. */
export async function getStatic(ctx: ExecContext): Promise<string[]> {
  const out = await systemctl(ctx, '--full', '--no-legend', '--no-pager', 'list-unit-files');
  const ret = new Set<string>();
  for (const line of lines(merged(out))) {
    const [full = '', state] = line.trim().split(/\s+/);
    if (state !== 'static') continue;
    const dot = full.lastIndexOf('.');
    const type = full.slice(dot + 1);
    if (dot >= 0 && UNIT_TYPES.includes(type)) ret.add(type === 'service' ? full.slice(0, dot) : full);
  }
  return [...ret].sort();
}

/** Salt's systemd `get_all`: unit files in the system and local unit folders, and init scripts without a unit. */
export function getAllUnits(): string[] {
  const units = new Set<string>();
  for (const dir of ['/lib/systemd/system', '/usr/lib/systemd/system', '/etc/systemd/system']) {
    try {
      accessSync(dir, constants.R_OK);
      if (lstatSync(dir).isSymbolicLink()) continue;
      for (const f of readdirSync(dir)) {
        const dot = f.lastIndexOf('.');
        const type = f.slice(dot + 1);
        if (dot >= 0 && UNIT_TYPES.includes(type)) units.add(type === 'service' ? f.slice(0, dot) : f);
      }
    } catch {
      // not there
    }
  }
  let scripts: string[] = [];
  try {
    scripts = readdirSync('/etc/init.d');
  } catch {
    // no init scripts
  }
  for (const f of scripts) {
    try {
      accessSync(`/etc/init.d/${f}`, constants.X_OK);
      units.add(f);
    } catch {
      // not executable
    }
  }
  return [...units].sort();
}

const FIRSTBOOT_FLAGS: ReadonlyArray<[string, string]> = [
  ['locale', 'locale'],
  ['locale_message', 'locale-message'],
  ['keymap', 'keymap'],
  ['timezone', 'timezone'],
  ['hostname', 'hostname'],
  ['machine_id', 'machine-ID'],
  ['root', 'root'],
];

/** Salt's `firstboot`: `systemd-firstboot --<flag> <value>...` for each value given. */
export async function firstboot(ctx: ExecContext, a: Readonly<Record<string, unknown>>): Promise<true> {
  const argv = [which('systemd-firstboot') ?? 'systemd-firstboot'];
  for (const [key, flag] of FIRSTBOOT_FLAGS) if (a[key]) argv.push(`--${flag}`, String(a[key]));
  const out = await execCommand(argv, { signal: ctx.signal });
  if (out.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(`systemd-firstboot error: ${out.stderr}`);
  return true;
}

/** Salt's parse of `systemctl` (list-units): the units whose sub-state is `running`, services without `.service`. */
export function runningUnits(out: string): string[] {
  const ret = new Set<string>();
  for (const line of out.split('\n')) {
    const comps = line.trim().split(/\s+/);
    const full = comps[0] ?? '';
    if (comps.length <= 3 || comps[3] !== 'running') continue;
    const dot = full.lastIndexOf('.');
    if (dot < 0) continue;
    const type = full.slice(dot + 1);
    if (UNIT_TYPES.includes(type)) ret.add(type === 'service' ? full.slice(0, dot) : full);
  }
  return [...ret].sort();
}

/** Salt's `service.get_running` (systemd): the running units. */
export async function getRunning(ctx: ExecContext): Promise<string[]> {
  return runningUnits(merged(await systemctl(ctx, '--full', '--no-legend', '--no-pager')));
}
