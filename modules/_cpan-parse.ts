/**
 * Salt's readings of the `cpan` client's output (`salt/modules/cpan.py`): `cpan -l` as a map of
 * module to version, `cpan -J` as CPAN's config, `cpan -D` as a module's details. `cmd.run`
 * hands over standard output and error together, so cpan's own notices are read too, as in Salt.
 */
import { pySplitlines } from '../kernel/python/index.js';
import { pythonError } from './_py-exception.js';

/** `cpan -l`: each line's first word mapped to its second (a one-word line is Salt's IndexError). */
export function parseCpanList(out: string): Record<string, string> {
  const ret: Record<string, string> = {};
  for (const line of pySplitlines(out)) {
    const comps = line.trim().split(/\s+/).filter(Boolean);
    if (comps.length < 2) throw pythonError('IndexError', 'list index out of range');
    ret[comps[0] as string] = comps[1] as string;
  }
  return ret;
}

/** `cpan -J`: the `'key' => 'value',` lines (a value spread over lines keeps its first part only). */
export function parseCpanConfig(out: string): Record<string, string> {
  const ret: Record<string, string> = {};
  for (const line of pySplitlines(out)) {
    if (!line.includes('=>')) continue;
    const comps = line.split('=>');
    const key = (comps[0] ?? '').replaceAll("'", '').trim();
    ret[key] = (comps[1] ?? '').replaceAll("',", '').replaceAll("'", '').trim();
  }
  return ret;
}

/** What `cpan -D` tells of a module, before the build directories are added. */
export interface CpanModuleInfo {
  name: string;
  error?: string;
  description?: string;
  'cpan file'?: string;
  'installed file'?: string | null;
  'installed version'?: string | null;
  'cpan version'?: string;
  'author name'?: string;
  'author email'?: string;
  'cpan build dirs'?: string[];
}

/** `cpan -D <module>`: the lines after its dashed rule, in Salt's fixed order. */
export function parseCpanDetails(name: string, out: string): CpanModuleInfo {
  const ret: CpanModuleInfo = { name };
  const lines = pySplitlines(out);
  const rule = lines.findIndex((l) => l.startsWith('-------------'));
  const info = rule < 0 ? [] : lines.slice(rule + 1).filter((l) => !l.startsWith('-------------'));
  // a module that is not installed has no "installed file" line
  if (info.length === 6) info.splice(2, 0, '');
  if (info.length < 6) return { ...ret, error: 'This package does not seem to exist' };
  const at = (i: number) => info[i] ?? '';
  ret.description = at(0).trim();
  ret['cpan file'] = at(1).trim();
  ret['installed file'] = at(2).trim() || null;
  const installed = at(3).split(':');
  ret['installed version'] = installed.length > 1 ? (installed[1] ?? '').trim() || null : null;
  const latest = at(4).split(':');
  if (latest.length < 2) throw pythonError('IndexError', 'list index out of range');
  const words = (latest[1] ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) throw pythonError('IndexError', 'list index out of range');
  ret['cpan version'] = words[0] as string;
  ret['author name'] = at(5).trim();
  ret['author email'] = at(6).trim();
  return ret;
}
