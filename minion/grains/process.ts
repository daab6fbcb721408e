/**
 * Grains about the minion process and its environment: `username`, `uid`, `gid`,
 * `groupname`, `pid` (Salt's `minion_process` grains), `path`/`systempath`, `shell`, `cwd`,
 * and `locale_info`.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { readText } from './hardware.js';

/** The name of group `gid` in `/etc/group` text, or ''. */
export function groupName(groupText: string, gid: number): string {
  for (const line of groupText.split('\n')) {
    const f = line.split(':');
    if (f.length >= 3 && Number(f[2]) === gid && f[2] !== '') return f[0] ?? '';
  }
  return '';
}

export function processGrains(): Record<string, unknown> {
  let username = '';
  let uid = process.geteuid?.() ?? -1;
  let gid = process.getegid?.() ?? -1;
  try {
    const info = os.userInfo();
    username = info.username;
    uid = info.uid;
    gid = info.gid;
  } catch {
    // no passwd entry for this uid
  }
  const path = (process.env.PATH ?? '').trim();
  return {
    username,
    groupname: groupName(readText('/etc/group') ?? '', gid),
    pid: process.pid,
    gid,
    uid,
    path,
    systempath: path.split(':'),
    shell: process.env.SHELL ?? '/bin/sh',
    cwd: process.cwd(),
  };
}

/** Python's normalized encoding names for the common spellings. */
function encodingName(enc: string): string {
  const e = enc.toLowerCase().replace(/[-_]/g, '');
  if (e === 'utf8') return 'UTF-8';
  if (e === 'iso88591' || e === 'latin1') return 'ISO8859-1';
  return enc;
}

/**
 * Python's `locale.getlocale()` (LC_CTYPE) from the environment. Python coerces the C/POSIX
 * locale to C.UTF-8 at start (PEP 538), and its alias table (3.10 and 3.11, which Salt 3006
 * runs on) reads C.UTF-8 as `en_US.UTF-8`: an unset, C or C.UTF-8 locale is `('en_US', 'UTF-8')`.
 */
export function localeFromEnv(env: NodeJS.ProcessEnv = process.env): [string, string] {
  const raw = env.LC_ALL || env.LC_CTYPE || env.LANG || 'C.UTF-8';
  const name = raw === 'C' || raw === 'POSIX' || /^C\.utf-?8$/i.test(raw) ? 'en_US.UTF-8' : raw;
  const [lang = name, rest] = name.split('.');
  const enc = (rest ?? '').split('@')[0] ?? '';
  return [lang, enc ? encodingName(enc) : 'ISO8859-1'];
}

/** The local time zone abbreviation now: from a TZif file's POSIX footer, else Intl. */
export function timezoneName(tzif: Buffer | undefined = readTzif(), now = new Date()): string {
  const footer = tzif ? tzif.toString('latin1').trimEnd().split('\n').pop() : undefined;
  const m = footer ? /^(<[^>]+>|[A-Za-z]{3,})[-+\d:]+(<[^>]+>|[A-Za-z]{3,})?/.exec(footer) : null;
  if (m) {
    const std = (m[1] as string).replace(/[<>]/g, '');
    const dst = m[2]?.replace(/[<>]/g, '');
    if (!dst) return std;
    const jan = new Date(now.getFullYear(), 0, 1).getTimezoneOffset();
    const jul = new Date(now.getFullYear(), 6, 1).getTimezoneOffset();
    return now.getTimezoneOffset() < Math.max(jan, jul) ? dst : std;
  }
  const part = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
    .formatToParts(now)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? 'unknown';
}

function readTzif(): Buffer | undefined {
  const tz = process.env.TZ?.replace(/^:/, '');
  const path = tz ? (tz.startsWith('/') ? tz : `/usr/share/zoneinfo/${tz}`) : '/etc/localtime';
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

export function localeGrains(): Record<string, unknown> {
  const [defaultlanguage, defaultencoding] = localeFromEnv();
  return {
    locale_info: {
      defaultlanguage,
      defaultencoding,
      detectedencoding: 'utf-8',
      timezone: timezoneName(),
    },
  };
}
