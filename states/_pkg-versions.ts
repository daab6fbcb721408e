/**
 * Version conditions for the pkg states (Salt's `_get_comparison_spec`, `_fulfills_version_string`,
 * `_fulfills_version_spec` and `_get_desired_pkg` in `salt/states/pkg.py`): `1.2`, `>=1.0,<2.0`
 * or a glob checked against the installed versions, compared by the minion's `pkg.version_cmp`.
 */

import { repackPkgs as repackTargets } from '../modules/_pkg-targets.js';
import { cmpSatisfies, isCmpOperator } from '../modules/_version-cmp.js';
import type { StateContext } from '../plugins/states/index.js';

/** Operator and version of one condition (`''` and `=` become `==`). */
export function comparisonSpec(pkgver: string): [string, string] {
  const m = /^(<=>|!=|>=|<=|>>|<<|<>|>|<|=)?\s?([^<>=]+)$/.exec(pkgver.trim());
  const oper = m ? (m[1] ?? '') : '';
  const ver = m ? (m[2] ?? '') : pkgver.trim();
  return [oper === '' || oper === '=' ? '==' : oper, ver];
}

function parseConditions(spec: string): [string, string][] {
  const s = spec.trim();
  return s ? s.split(',').map(comparisonSpec) : [];
}

function fnmatchRe(pattern: string): RegExp {
  let re = '';
  for (const c of pattern) {
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

async function cmp(ctx: StateContext, a: string, b: string, ignoreEpoch: boolean): Promise<number | null> {
  const r = await ctx.call('pkg.version_cmp', [a, b], { ignore_epoch: ignoreEpoch });
  return typeof r === 'number' ? Math.max(-1, Math.min(1, r)) : null;
}

async function fulfillsSpec(
  ctx: StateContext,
  versions: readonly string[],
  oper: string,
  desired: string,
  ignoreEpoch: boolean | null | undefined,
): Promise<boolean> {
  const ie = ignoreEpoch ?? (!oper.includes('<') && !oper.includes('>') && !desired.includes(':'));
  for (const ver of versions) {
    if (oper === '==' && fnmatchRe(desired).test(ver)) return true;
    if (!isCmpOperator(oper)) continue;
    const r = await cmp(ctx, ver, desired, ie);
    if (r === null) continue;
    if (cmpSatisfies(oper, r)) return true;
  }
  return false;
}

/** Whether one of `installed` meets every condition of `spec`. */
export async function fulfillsVersionString(
  ctx: StateContext,
  installed: readonly string[],
  spec: string,
  ignoreEpoch?: boolean | null,
  allowUpdates = false,
): Promise<boolean> {
  const conditions = parseConditions(spec);
  for (const v of installed) {
    let all = true;
    for (const [op, ver] of conditions) {
      const oper = allowUpdates && conditions.length === 1 && op === '==' ? '>=' : op;
      all = all && (await fulfillsSpec(ctx, [v], oper, ver, ignoreEpoch));
    }
    if (all) return true;
  }
  return false;
}

/** `name=version` as Salt prints a desired package (`name` alone without a version, no `=` before an operator). */
export function desiredPkg(name: string, desired: Readonly<Record<string, string | null>>): string {
  const v = desired[name];
  const oper = !v || /^[<>=]/.test(v) ? '' : '=';
  return `${name}${oper}${v ?? ''}`;
}

/**
 * A `pkgs` list as name → wanted version (Salt's `_repack_pkgs`, the one `pkg_resource` has:
 * a name given twice is its SaltInvocationError); anything but a list gives nothing.
 */
export function repackPkgs(pkgs: unknown): Record<string, string | null> {
  return Array.isArray(pkgs) ? repackTargets(pkgs) : {};
}

/** Salt's nested outputter, plain, for the `info` of a failed pkg command. */
export function nestedText(value: unknown, indent = 0, prefix = ''): string[] {
  const pad = ' '.repeat(indent);
  if (value === null || typeof value === 'boolean')
    return [`${pad}${prefix}${value === null ? 'None' : value ? 'True' : 'False'}`];
  if (typeof value === 'number') return [`${pad}${prefix}${value}`];
  if (typeof value === 'string') {
    return value
      .split(/\r?\n/)
      .map((line, i) => `${pad}${i === 0 ? prefix : ' '.repeat(prefix.length)}${line}`);
  }
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const item of value) {
      if (item && typeof item === 'object') {
        out.push(`${pad}|_`);
        out.push(...nestedText(item, indent + 2, Array.isArray(item) ? '- ' : ''));
      } else out.push(...nestedText(item, indent, '- '));
    }
    return out;
  }
  const out: string[] = [];
  if (indent) out.push(`${pad}----------`);
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj).sort()) {
    out.push(`${pad}${prefix}${key}:`);
    out.push(...nestedText(obj[key], indent + 4, ''));
  }
  return out;
}

/** What a failed pkg function reports (Salt's `CommandExecutionError` with `info`). */
export interface PkgFailure {
  message: string;
  changes: Record<string, unknown>;
  /** Salt's `strerror_without_changes`; undefined when the error carried no info. */
  withoutChanges?: string;
}

/** Reads a pkg function's error: its message and, when it carries `details`, the changes and the rest. */
export function pkgFailure(err: unknown): PkgFailure {
  const message = err instanceof Error ? err.message : String(err);
  const details = (err as { details?: unknown }).details;
  if (!details || typeof details !== 'object' || Array.isArray(details)) return { message, changes: {} };
  const info = { ...(details as Record<string, unknown>) };
  const changes = (info.changes as Record<string, unknown> | undefined) ?? {};
  delete info.changes;
  if (!Object.keys(info).length) return { message, changes, withoutChanges: message };
  let head = message;
  if (head && !/[.?!]$/.test(head)) head += '.';
  if (head) head += ' ';
  return {
    message,
    changes,
    withoutChanges: `${head}Additional info follows:\n\n${nestedText(info).join('\n')}`,
  };
}
