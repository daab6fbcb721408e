/**
 * Readers of xfsprogs' and xfsdump's text, shaped as Salt's xfs module returns it: `xfs_info`
 * (and `mkfs.xfs`) geometry, `xfsdump` results, the `xfsrestore -I` inventory, `xfsinvutil`
 * prune reports, `xfs_estimate -v` and `blkid -o export` for XFS devices.
 */

import { blkidBlocks, procMounts } from './_fsutils.js';
import { pythonError } from './_py-exception.js';

/** One geometry line as key/value pairs (a pair may lack its value or have more parts). */
function infoPairs(serialized: string): string[][] {
  let s = serialized.startsWith('=') ? serialized.slice(1).trim() : serialized;
  s = s.replaceAll(' = ', '=*** ').replaceAll(' =', '=');
  const opt: string[] = [];
  for (const tkn of s.split(' ')) {
    if (!opt.length || tkn.includes('=')) opt.push(tkn);
    else opt[opt.length - 1] += ` ${tkn}`;
  }
  return opt.map((o) => o.split('='));
}

/** Python's `dict(pairs)`, which refuses a pair that is not two items. */
function pairsToDict(pairs: string[][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [i, p] of pairs.entries()) {
    if (p.length !== 2)
      throw pythonError(
        'ValueError',
        `dictionary update sequence element #${i} has length ${p.length}; 2 is required`,
      );
    out[p[0] ?? ''] = p[1] ?? '';
  }
  return out;
}

/** `xfs_info` / `mkfs.xfs` geometry: one record per section ("meta-data", "data", "log", ...). */
export function parseXfsInfo(data: string): Record<string, Record<string, string>> {
  const ret: Record<string, Record<string, string>> = {};
  let entry: string[] | undefined;
  for (const raw of data.split('\n')) {
    const line = raw.replace(/\s+/g, ' ').trim().replaceAll(', ', ' ');
    if (!line.includes('=')) continue;
    const nfo = infoPairs(line);
    if (!line.startsWith('=')) {
      entry = nfo.shift() ?? [];
      ret[entry[0] ?? ''] = { section: (entry[1] !== '***' ? entry[1] : entry[0]) ?? '' };
    }
    if (!entry) throw pythonError('TypeError', "'NoneType' object is not subscriptable");
    Object.assign(ret[entry[0] ?? ''] ?? {}, pairsToDict(nfo));
  }
  return ret;
}

/**
 * What `xfsdump` reported: session id and label, media size, completion, status, and the
 * indented lines after "Dump Summary:" joined as the summary.
 */
export function parseXfsdump(data: string): Record<string, string> {
  const out: Record<string, string> = {};
  const summary: string[] = [];
  let inSummary = false;
  for (const raw of data.split('\n')) {
    if (!raw.trim()) continue;
    const line = raw.trim().replace(/^xfsdump: /, '');
    if (line.startsWith('session id:')) out['Session ID'] = line.split(' ').pop() ?? '';
    else if (line.startsWith('session label:')) out['Session label'] = line.replace(/^session label: /, '');
    else if (line.startsWith('media file size')) out['Media size'] = line.replace(/^media file size\s+/, '');
    else if (line.startsWith('dump complete:')) out['Dump complete'] = line.replace(/^dump complete:\s+/, '');
    else if (line.startsWith('Dump Status:')) out.Status = line.replace(/^Dump Status:\s+/, '');
    else if (line.startsWith('Dump Summary:')) {
      inSummary = true;
      continue;
    }
    if (line.startsWith(' ') && inSummary) summary.push(line.trim());
    else if (inSummary) inSummary = false;
  }
  if (summary.length) out.Summary = summary.join(' ');
  return out;
}

type Tree = { [key: string]: string | Tree };

/** The Python-literal pieces Salt writes for one inventory line. */
function inventoryPiece(line: string): { key: string; value?: string } {
  const tkns = line
    .trim()
    .split(/:(.*)/s)
    .slice(0, 2)
    .filter((e) => e);
  if (tkns.length === 1) return { key: tkns[0] ?? '' };
  return { key: (tkns[0] ?? '').trim(), value: (tkns[1] ?? '').trim() };
}

const syntaxError = (msg: string) => pythonError('SyntaxError', msg);

/**
 * `xfsrestore -I`: the nested inventory. Salt writes the lines as a Python literal (a header
 * opens a record, a tab-indented line closes as many records as the indent it leaves) and
 * evaluates it; this reads the same pieces the same way, refusing what Python would refuse.
 */
export function parseInventory(text: string): Record<string, unknown> {
  const lines = text.split('\n').filter((l) => l.trim());
  if (lines.length === 1 && (lines[0] ?? '').toLowerCase().includes('restore status'))
    return { restore_status: lines[0] };
  type Tok = { open: true } | { close: true } | { key: string; value?: string };
  const toks: Tok[] = [{ open: true }];
  let ident = 0;
  for (const line of lines.slice(0, -1)) {
    if (
      line
        .trim()
        .split(':')
        .filter((e) => e).length === 1
    ) {
      const nIdent = (line.match(/\t/g) ?? []).length;
      if (ident > nIdent) for (let i = 0; i < ident; i++) toks.push({ close: true });
      ident = nIdent;
      toks.push(inventoryPiece(line), { open: true });
    } else toks.push(inventoryPiece(line));
  }
  for (let i = 0; i < ident + 2; i++) toks.push({ close: true });
  let pos = 0;
  const readDict = (): Tree => {
    pos++; // the opening brace
    const obj: Tree = {};
    for (;;) {
      const t = toks[pos];
      if (!t) throw syntaxError("'{' was never closed");
      if ('close' in t) {
        pos++;
        return obj;
      }
      if ('open' in t) throw syntaxError('invalid syntax');
      for (const s of [t.key, t.value ?? '']) if (s.includes("'")) throw syntaxError('invalid syntax');
      pos++;
      if (t.value !== undefined) obj[t.key] = t.value;
      else if (toks[pos] && 'open' in (toks[pos] as Tok)) obj[t.key] = readDict();
      else throw syntaxError('invalid syntax');
    }
  };
  const first = toks[0] && 'open' in toks[0] ? readDict() : undefined;
  if (!first) throw syntaxError('invalid syntax');
  while (pos < toks.length) {
    const t = toks[pos];
    if (t && 'open' in t) readDict();
    else throw syntaxError("unmatched '}'");
  }
  return { ...first, restore_status: lines[lines.length - 1] };
}

/** `xfsinvutil` prune report: the session's fields, or {} when it is not `uuid`'s. */
export function parsePrune(out: string, uuid: string): Record<string, string> {
  const cnt: string[] = [];
  let cut = false;
  for (const line of out
    .split('\n')
    .filter((l) => l)
    .map((l) => l.trim())) {
    if (line.startsWith('-')) {
      if (cut) break;
      cut = true;
      continue;
    }
    if (cut) cnt.push(line);
  }
  const data: Record<string, string> = {};
  for (const kset of cnt.slice(1).filter((e) => e.includes(':'))) {
    const at = kset.indexOf(':');
    data[kset.slice(0, at).trim().toLowerCase().replaceAll(' ', '_')] = kset.slice(at + 1).trim();
  }
  return data.uuid === uuid ? data : {};
}

/** `xfs_estimate -v`: per directory, its block size, blocks, megabytes and log size. */
export function parseEstimate(out: string): Record<string, Record<string, string>> {
  const data: Record<string, Record<string, string>> = {};
  for (const line of out
    .split('\n')
    .filter((l) => l.trim())
    .slice(1)) {
    const f = line.replace(/\s+/g, ' ').split(' ');
    if (f.length !== 5)
      throw pythonError(
        'ValueError',
        f.length > 5
          ? 'too many values to unpack (expected 5)'
          : `not enough values to unpack (expected 5, got ${f.length})`,
      );
    const [dir = '', bsize = '', blocks = '', megabytes = '', logsize = ''] = f;
    data[dir] = { 'block _size': bsize, blocks, megabytes, logsize };
  }
  return data;
}

/** Mounted XFS file systems by device (a device's last mount wins). */
export function xfsMounts(): Record<string, { mount_point: string; options: string[] }> {
  const mounts: Record<string, { mount_point: string; options: string[] }> = {};
  for (const [device = '', mountPoint = '', type = '', options = ''] of procMounts())
    if (type === 'xfs') mounts[device] = { mount_point: mountPoint, options: options.split(',') };
  return mounts;
}

/** XFS devices of `blkid -o export` by name (label null when none), with their mount. */
export function xfsBlkid(out: string): Record<string, Record<string, unknown>> {
  const data: Record<string, Record<string, unknown>> = {};
  for (const dev of blkidBlocks(out)) {
    const { type, devname = 'None', ...rest } = dev;
    if (type !== 'xfs') continue;
    data[devname] = { ...rest, label: rest.label ?? null };
  }
  for (const [device, mount] of Object.entries(xfsMounts())) {
    const known = data[device];
    if (known) Object.assign(known, mount);
  }
  return data;
}
