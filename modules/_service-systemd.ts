/**
 * The systemd backend of the `service` module (Salt's `salt/modules/systemd_service.py`, its
 * common functions): `systemctl` to list, query, start, stop, enable and mask units. Chosen
 * when systemd is PID 1 (/run/systemd/system exists, Salt's `salt.utils.systemd.booted`).
 * Not tested on this project's machines, whose PID 1 is not systemd.
 */
import { existsSync } from 'node:fs';
import type { ExecContext } from '../kernel/index.js';
import { type ExecResult, execCommand } from './_pkg-exec.js';

/** Whether systemd is running (Salt's `salt.utils.systemd.booted`). */
export function systemdBooted(): boolean {
  return existsSync('/run/systemd/system');
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

/** `systemctl show <unit>` as a map (Salt's `service.show`). */
export async function show(ctx: ExecContext, name: string): Promise<Record<string, unknown>> {
  const ret: Record<string, unknown> = {};
  const out = await systemctl(ctx, 'show', unitName(name));
  for (const line of out.stdout.split('\n')) {
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1);
    if (key.startsWith('Exec')) ret[key] = value;
    else if (
      ['After', 'Before', 'Conflicts', 'Names', 'Requires', 'RequiredBy', 'Wants', 'WantedBy'].includes(key)
    )
      ret[key] = value.split(/\s+/).filter(Boolean);
    else if (value === 'yes' || value === 'no') ret[key] = value === 'yes';
    else ret[key] = value;
  }
  return ret;
}

const UNIT_TYPES = ['service', 'socket', 'device', 'mount', 'automount', 'swap', 'target', 'path', 'timer'];

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
  return runningUnits((await systemctl(ctx, '--full', '--no-legend', '--no-pager')).stdout);
}
