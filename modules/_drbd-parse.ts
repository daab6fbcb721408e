/**
 * Readers of DRBD's text, as Salt's `drbd` module (salt/modules/drbd.py) reads it:
 * `drbd-overview` lines and `drbdadm status` blocks. Where Salt's reader raises (a field
 * missing, a volume before its resource), this raises the same Python error, so salt-call
 * reports what Salt's does.
 */
import { pythonError } from './_py-exception.js';

/** Python's `str.split()` with no separator: runs of whitespace, no empty fields. */
const fieldsOf = (line: string): string[] => line.trim().split(/\s+/).filter(Boolean);

/** Python's `seq[i]`, raising IndexError past the end. */
function at(list: readonly string[], i: number): string {
  const v = list[i];
  if (v === undefined) throw pythonError('IndexError', 'list index out of range');
  return v;
}

/** One field of an overview line: `Connected(2*)` → both halves the text before `(`; `A/B` → A and B. */
function overviewField(content: string): [string, string] {
  if (content.includes('(')) {
    const head = content.split('(')[0] ?? '';
    return [head, head];
  }
  if (content.includes('/')) {
    const parts = content.split('/');
    return [parts[0] ?? '', at(parts, 1)];
  }
  return [content, ''];
}

/** One `drbd-overview` line as Salt's `overview` reads it. */
function overviewLine(line: string): Record<string, string> {
  const fields = fieldsOf(line);
  const head = at(fields, 0).split(':');
  const base: Record<string, string> = { 'minor number': at(head, 0), device: at(head, 1) };
  const [connstate] = overviewField(at(fields, 1));
  const [localrole, partnerrole] = overviewField(at(fields, 2));
  const [localdisk, partnerdisk] = overviewField(at(fields, 3));
  Object.assign(base, {
    'connection state': connstate,
    'local role': localrole,
    'partner role': partnerrole,
    'local disk state': localdisk,
    'partner disk state': partnerdisk,
  });
  if (!localdisk.startsWith('UpTo')) return {};
  if (!partnerdisk.startsWith('UpTo')) {
    return {
      ...base,
      'synchronisation: ': at(fields, 4),
      synched: at(fields, 6) + at(fields, 7),
    };
  }
  if (fields.length < 5) return base;
  return {
    ...base,
    mountpoint: at(fields, 4),
    fs: at(fields, 5),
    'total size': at(fields, 6),
    used: at(fields, 7),
    remains: at(fields, 8),
    percent: at(fields, 9),
  };
}

/**
 * Salt's `overview`: every line is read, the last one's answer is returned (a line whose local
 * disk is not UpToDate gives `{}`); no lines at all is Salt's UnboundLocalError.
 */
export function parseOverview(lines: readonly string[]): Record<string, string> {
  let ret: Record<string, string> | undefined;
  for (const line of lines) ret = overviewLine(line);
  if (ret === undefined)
    throw pythonError(
      'UnboundLocalError',
      "cannot access local variable 'ret' where it is not associated with a value",
    );
  return ret;
}

/** One local or peer volume: `key:value` fields. */
export type DrbdVolume = Record<string, string>;
/** One peer node of a resource. */
export type DrbdPeer = Record<string, string | DrbdVolume[]>;
/** One resource of `drbdadm status`. */
export interface DrbdResource {
  'resource name': string;
  'local role': string;
  'local volumes': DrbdVolume[];
  'peer nodes': DrbdPeer[];
}

type Section = '' | 'RESOURCE' | 'PEERNODE' | 'LOCALDISK' | 'PEERDISK' | 'UNKNOWN';

/** Which part of a status block a line is, by its indent (Salt's `_analyse_status_type`). */
function sectionOf(line: string): Section {
  if ((line.split('#')[0] ?? '').trim() === '') return '';
  const spaces = line.length - line.replace(/^\s+/, '').length;
  if (spaces === 0) return 'RESOURCE';
  if (spaces === 2) {
    if (line.includes(' disk:')) return 'LOCALDISK';
    if (line.includes(' role:') || line.includes(' connection:')) return 'PEERNODE';
    return 'UNKNOWN';
  }
  if (spaces === 4 && line.includes(' peer-disk:')) return 'PEERDISK';
  return 'UNKNOWN';
}

const noAppend = (what: string) =>
  pythonError('AttributeError', `'${what}' object has no attribute 'append'`);

/** Salt's `status` reader over `drbdadm status` lines: the resources, or `{'Unknown parser': line}`. */
export function parseStatus(lines: readonly string[]): DrbdResource[] | Record<string, string> {
  let ret: DrbdResource[] | Record<string, string> = [];
  let resource: Partial<DrbdResource> = {};
  let peerVolumes: DrbdVolume[] | null = null;
  const push = (res: Partial<DrbdResource>) => {
    if (!Array.isArray(ret)) throw noAppend('dict');
    ret.push(res as DrbdResource);
  };
  const need = <K extends keyof DrbdResource>(key: K): DrbdResource[K] => {
    const v = resource[key];
    if (v === undefined) throw pythonError('KeyError', `'${key}'`);
    return v;
  };
  for (const line of lines) {
    const section = sectionOf(line);
    const fields = fieldsOf(line);
    if (section === '') continue;
    if (section === 'RESOURCE') {
      if (Object.keys(resource).length > 0) push(resource);
      resource = {};
      resource['resource name'] = at(fields, 0);
      resource['local role'] = at(at(fields, 1).split(':'), 1);
      resource['local volumes'] = [];
      resource['peer nodes'] = [];
    } else if (section === 'PEERNODE') {
      const [key, value] = [at(fields, 1).split(':')[0] ?? '', at(at(fields, 1).split(':'), 1)];
      const peer: DrbdPeer = { 'peernode name': at(fields, 0), [key]: value, 'peer volumes': [] };
      need('peer nodes').push(peer);
      peerVolumes = peer['peer volumes'] as DrbdVolume[];
    } else if (section === 'LOCALDISK' || section === 'PEERDISK') {
      const volume: DrbdVolume = {};
      for (const field of fields) volume[field.split(':')[0] ?? ''] = at(field.split(':'), 1);
      if (section === 'LOCALDISK') need('local volumes').push(volume);
      else if (peerVolumes === null) throw noAppend('NoneType');
      else peerVolumes.push(volume);
    } else {
      ret = { 'Unknown parser': line };
    }
  }
  if (Object.keys(resource).length > 0) push(resource);
  return ret;
}
