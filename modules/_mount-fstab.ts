/**
 * fstab entries as Salt's `_fstab_entry` reads, compares and writes them
 * (`salt/modules/mount.py`): `set_fstab` (add, change or keep the entry its `match_on` keys
 * find) and `rm_fstab` (drop the lines naming a mount point and device). Lines that are not
 * entries (comments, blank, too few or many fields) are kept as they are.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { pyOsError } from './_py-oserror.js';
import { pySplit } from './_status-proc.js';

export const FSTAB_ENTRY_KEYS = ['device', 'name', 'fstype', 'opts', 'dump', 'pass_num'] as const;
type EntryKey = (typeof FSTAB_ENTRY_KEYS)[number];
export type FstabCriteria = Partial<Record<EntryKey, string>>;

/** The fields of an fstab line, or undefined for a comment or a line of other than 4-6 fields. */
export function entryOfLine(line: string): Record<EntryKey, string> | undefined {
  if (line.startsWith('#')) return undefined;
  const c = pySplit(line);
  if (c.length < 4 || c.length > 6) return undefined;
  while (c.length < 6) c.push('0');
  return Object.fromEntries(FSTAB_ENTRY_KEYS.map((k, i) => [k, c[i]!])) as Record<EntryKey, string>;
}

/** Criteria from values: null and undefined dropped, the others as Python's `str()`. */
export function criteriaOf(values: Partial<Record<EntryKey, unknown>>): FstabCriteria {
  const out: FstabCriteria = {};
  for (const [k, v] of Object.entries(values))
    if (v !== null && v !== undefined) out[k as EntryKey] = pyStr(v);
  return out;
}

/** Whether the line's entry has every criterion (opts compared as sorted sets of words). */
export function matchesLine(criteria: FstabCriteria, line: string): boolean | undefined {
  const entry = entryOfLine(line);
  if (!entry) return undefined;
  for (const [k, v] of Object.entries(criteria) as [EntryKey, string][]) {
    if (k === 'opts') {
      if (entry.opts.split(',').sort().join(',') !== v.split(',').sort().join(',')) return false;
    } else if (entry[k] !== v) return false;
  }
  return true;
}

export const formatEntry = (e: FstabCriteria): string =>
  `${e.device}\t\t${e.name}\t${e.fstype}\t${e.opts}\t${e.dump} ${e.pass_num}\n`;

const SPECIAL_FS = new Set([
  'none',
  'tmpfs',
  'sysfs',
  'proc',
  'fusectl',
  'debugfs',
  'securityfs',
  'devtmpfs',
  'cgroup',
  'nfs',
  'nfs4',
  'glusterfs',
  'btrfs',
]);

/** The lines of `config`, each with its newline; Salt's read error otherwise. */
export function readLines(config: string): string[] {
  try {
    return readFileSync(config, 'utf8')
      .split(/(?<=\n)/)
      .filter((l) => l !== '');
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(`Couldn't read from ${config}: ${pyOsError(err, config)}`);
  }
}

export interface SetFstabArgs {
  name: string;
  device: string;
  fstype: string;
  opts: unknown;
  dump: unknown;
  pass_num: unknown;
  config: string;
  test: boolean;
  match_on: unknown;
  not_change: boolean;
}

/** Salt's `set_fstab`: "present", "change" or "new" (written unless `test`). */
export function setFstab(a: SetFstabArgs): 'present' | 'change' | 'new' {
  const opts = Array.isArray(a.opts) ? a.opts.map(pyStr).join(',') : pyStr(a.opts);
  const entry = criteriaOf({
    name: a.name,
    device: a.device.replace(/\\ /g, '\\040'),
    fstype: a.fstype,
    opts: opts.replace(/\\ /g, '\\040'),
    dump: a.dump,
    pass_num: a.pass_num,
  });
  let matchOn: string[];
  if (Array.isArray(a.match_on)) matchOn = a.match_on.map(String);
  else if (typeof a.match_on !== 'string')
    throw new SALT_ERR_EXEC_COMMAND('match_on must be a string or list of strings');
  else if (a.match_on === 'auto') matchOn = SPECIAL_FS.has(a.fstype) ? ['name'] : ['device'];
  else matchOn = [a.match_on];
  const bad = matchOn.filter((k) => !(k in entry));
  if (bad.length) throw new SALT_ERR_EXEC_COMMAND(`Unrecognized keys in match_on: "${bad.join(', ')}"`);
  const criteria = Object.fromEntries(matchOn.map((k) => [k, entry[k as EntryKey]])) as FstabCriteria;
  if (!existsSync(a.config) || !statSync(a.config).isFile())
    throw new SALT_ERR_EXEC_COMMAND(`Bad config file "${a.config}"`);
  const { lines, ret } = placeLine(
    readLines(a.config),
    (line) => matchesLine(criteria, line),
    (line) => matchesLine(entry, line),
    formatEntry(entry),
    a.not_change,
  );
  if (ret !== 'present' && !a.test) writeTable(a.config, lines);
  return ret;
}

/**
 * Salt's pass of `set_fstab`/`set_vfstab` over a table's lines: the lines `isWanted` finds are
 * "present" when `isSame` (or `notChange`), else replaced by `formatted` ("change"); with none
 * found `formatted` is appended ("new").
 */
export function placeLine(
  from: string[],
  isWanted: (line: string) => boolean | undefined,
  isSame: (line: string) => boolean | undefined,
  formatted: string,
  notChange: unknown,
): { lines: string[]; ret: 'present' | 'change' | 'new' } {
  let ret: 'present' | 'change' | 'new' | undefined;
  const lines: string[] = [];
  for (const line of from) {
    if (isWanted(line)) {
      ret = 'present';
      if (isSame(line) || notChange) lines.push(line);
      else {
        ret = 'change';
        lines.push(formatted);
      }
    } else lines.push(line);
  }
  if (ret === undefined) {
    lines.push(formatted);
    ret = 'new';
  }
  return { lines, ret };
}

/** Writes a table's lines back, or Salt's "File not writable" error. */
export function writeTable(config: string, lines: string[]): void {
  try {
    writeFileSync(config, lines.join(''));
  } catch {
    throw new SALT_ERR_EXEC_COMMAND(`File not writable ${config}`);
  }
}

/** Salt's `rm_fstab`: drops the entries of `name` (and `device` when given); always true. */
export function rmFstab(name: string, device: unknown, config: string): true {
  const criteria = criteriaOf({ name, device });
  let modified = false;
  const lines = readLines(config).filter((line) => {
    if (matchesLine(criteria, line)) {
      modified = true;
      return false;
    }
    return true;
  });
  if (modified) {
    try {
      writeFileSync(config, lines.join(''));
    } catch (err) {
      throw new SALT_ERR_EXEC_COMMAND(`Couldn't write to ${config}: ${pyOsError(err, config)}`);
    }
  }
  return true;
}
