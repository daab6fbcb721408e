/**
 * salt-key's listings (`salt/output/key.py`): one header per key status, statuses in
 * sorted order (`local`, `minions`, `minions_denied`, `minions_pre`, `minions_rejected`,
 * so Local, Accepted, Denied, Unaccepted, Rejected), key names sorted under each.
 */

import { compareCodePoints, pyRstrip } from '../kernel/python/index.js';
import { type ColorTable, getColors } from './colors.js';
import { renderNested } from './nested.js';
import { defineOutputter, type Outputter } from './types.js';

/** The key directories salt-key reports, by their Salt names. */
export type KeyStatus = 'minions' | 'minions_pre' | 'minions_rejected' | 'minions_denied' | 'local';

/** Keys by status, as salt-key's Key class lists them. */
export interface KeyLists {
  minions: string[];
  minions_pre: string[];
  minions_rejected: string[];
  minions_denied: string[];
  local?: string[];
}

/** Which listing: `-L` is `all`; `-l acc|pre|rej|den` one status; `local` the local keys. */
export type KeyListWhich = 'all' | 'acc' | 'pre' | 'rej' | 'den' | 'local';

/** Per status: a list of key names, or names mapped to a value (fingerprint, PEM text). */
export type KeyOutputData = Partial<Record<KeyStatus, readonly string[] | Readonly<Record<string, string>>>>;

const STATUSES: Readonly<
  Record<KeyStatus, { title: string; head: keyof ColorTable; item: keyof ColorTable }>
> = {
  minions: { title: 'Accepted Keys:', head: 'LIGHT_GREEN', item: 'GREEN' },
  minions_pre: { title: 'Unaccepted Keys:', head: 'LIGHT_RED', item: 'RED' },
  minions_rejected: { title: 'Rejected Keys:', head: 'LIGHT_BLUE', item: 'BLUE' },
  minions_denied: { title: 'Denied Keys:', head: 'LIGHT_MAGENTA', item: 'MAGENTA' },
  local: { title: 'Local Keys:', head: 'LIGHT_MAGENTA', item: 'MAGENTA' },
};

const isStatus = (s: string): s is KeyStatus => Object.hasOwn(STATUSES, s);

/**
 * Salt's key outputter for any salt-key result: list statuses print `name` lines,
 * dict statuses `name:  value` lines. No trailing newline.
 */
export function renderKeyOutput(data: KeyOutputData, opts: { color: boolean }): string {
  const c = getColors(opts.color);
  let out = '';
  const statuses = Object.keys(data).sort(compareCodePoints).filter(isStatus);
  for (const status of statuses) {
    const entry = data[status];
    if (entry === undefined) continue;
    const { title, head, item } = STATUSES[status];
    out += `${c[head]}${title}${c.ENDC}\n`;
    const values: Readonly<Record<string, string>> | undefined = Array.isArray(entry)
      ? undefined
      : (entry as Readonly<Record<string, string>>);
    const names = values ? Object.keys(values) : (entry as readonly string[]);
    for (const name of [...names].sort(compareCodePoints)) {
      // strip_colors: an ESC in a key name prints as '?'.
      const shown = name.replaceAll('\x1b', '?');
      out += values ? `${c[item]}${shown}:  ${values[name]}${c.ENDC}\n` : `${c[item]}${shown}${c.ENDC}\n`;
    }
  }
  return pyRstrip(out);
}

/**
 * `salt-key -L` (`which: 'all'`: all four managed statuses, headers printed even when
 * empty, local keys left out as Salt drops them) or `salt-key -l <which>`.
 */
export function renderKeyList(keys: KeyLists, which: KeyListWhich, opts: { color: boolean }): string {
  const pick: Record<KeyListWhich, KeyOutputData> = {
    all: {
      minions: keys.minions,
      minions_pre: keys.minions_pre,
      minions_rejected: keys.minions_rejected,
      minions_denied: keys.minions_denied,
    },
    acc: { minions: keys.minions },
    pre: { minions_pre: keys.minions_pre },
    rej: { minions_rejected: keys.minions_rejected },
    den: { minions_denied: keys.minions_denied },
    local: { local: keys.local ?? [] },
  };
  return renderKeyOutput(pick[which], opts);
}

/**
 * Which listing `salt-key -l <arg>` shows, by Salt's prefix rules (`acc…`, `pre…`/`un…`,
 * `rej…`, `den…`, `all`). `undefined` for anything else, `local` included: Salt then
 * prints nothing.
 */
export function keyListWhich(arg: string): Exclude<KeyListWhich, 'local'> | undefined {
  if (arg.startsWith('acc')) return 'acc';
  if (arg.startsWith('pre') || arg.startsWith('un')) return 'pre';
  if (arg.startsWith('rej')) return 'rej';
  if (arg.startsWith('den')) return 'den';
  if (arg.startsWith('all')) return 'all';
  return undefined;
}

/**
 * `salt-key -f <glob>` / `-F`: `name:  fingerprint` under each status that has a match
 * (Salt's name matching never yields an empty status, so empty ones are left out).
 */
export function renderFingerprints(
  fingers: Partial<Record<KeyStatus, Readonly<Record<string, string>>>>,
  opts: { color: boolean },
): string {
  const data: KeyOutputData = {};
  for (const [status, names] of Object.entries(fingers)) {
    if (isStatus(status) && names && Object.keys(names).length > 0) data[status] = names;
  }
  return renderKeyOutput(data, opts);
}

/** `--out=key`: Salt's key outputter; data that is not a salt-key result prints nested. */
export const keyOutputter: Outputter = defineOutputter({
  name: 'key',
  render(data, opts) {
    const ok =
      typeof data === 'object' &&
      data !== null &&
      !Array.isArray(data) &&
      Object.entries(data).every(([k, v]) => isStatus(k) && typeof v === 'object' && v !== null);
    return ok ? renderKeyOutput(data as KeyOutputData, opts) : renderNested(data, opts);
  },
});
