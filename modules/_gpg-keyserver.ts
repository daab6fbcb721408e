/**
 * The keyserver functions of Salt's `gpg` module: `search_keys` (gpg `--search-keys`, its
 * colon listing read as python-gnupg 0.4.9's `SearchKeys` reads it) and `receive_keys` (gpg
 * `--recv-keys`, its import status lines read as python-gnupg's `ImportResult`). gpg's dirmngr
 * does the talking; `keyserver` is handed to it as given (`hkp://host:port`, `hkps://...`, or a
 * bare host), keys.openpgp.org when none is.
 */
import { defineFunction, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { cli } from './_file-args.js';
import { keyIds, keyring, USER_DOC } from './_gpg-args.js';
import { gpgHome, withOwnership } from './_gpg-home.js';
import { localDate, unescapeUid } from './_gpg-keys.js';
import { type GpgStatus, runGpg } from './_gpg-run.js';

/** Salt's `_DEFAULT_KEY_SERVER`. */
const DEFAULT_KEYSERVER = 'keys.openpgp.org';

/** One key of a keyserver's answer, the fields python-gnupg's `SearchKeys` keeps. */
export interface FoundKey {
  keyid: string;
  length: string;
  date: string;
  expires: string;
  uids: string[];
}

/** Reads gpg's `--with-colons --search-keys` output as python-gnupg's `SearchKeys`: `pub` starts a key, `uid` adds to it. */
export function parseSearch(text: string): FoundKey[] {
  const keys: FoundKey[] = [];
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (!line) continue;
    const f = line.trim().split(':');
    const at = (i: number) => (i < f.length ? (f[i] as string) : 'unavailable');
    if (f[0] === 'pub') keys.push({ keyid: at(1), length: at(3), date: at(4), expires: at(5), uids: [] });
    else if (f[0] === 'uid') {
      const cur = keys[keys.length - 1];
      // python-gnupg fails on a uid before any pub (AttributeError on None)
      if (!cur) throw new SALT_ERR_EXEC_COMMAND("'NoneType' object is not subscriptable");
      cur.uids.push(unescapeUid(at(1)));
    }
  }
  return keys;
}

/** Python's `float(text)` before `localtime`: a field that is no number is Python's ValueError. */
function dateOf(text: string): string {
  if (!/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text))
    throw new SALT_ERR_EXEC_COMMAND(`could not convert string to float: '${text}'`);
  return localDate(text);
}

/** A key as Salt's `search_keys` returns it. */
export function shapeFound(k: FoundKey): Record<string, unknown> {
  const tmp: Record<string, unknown> = { keyid: k.keyid, uids: k.uids };
  if (k.expires) tmp.expires = dateOf(k.expires);
  if (k.date) tmp.created = dateOf(k.date);
  if (k.length) tmp.keyLength = k.length;
  return tmp;
}

/** Salt's `receive_keys` messages for python-gnupg's `ImportResult.results`, in gpg's order. */
export function receiveMessages(status: readonly GpgStatus[]): string[] {
  const out: string[] = [];
  for (const s of status) {
    if (s.key === 'IMPORT_OK') {
      const [reason, fingerprint] = s.value.split(/\s+/);
      if (reason === '1') out.push(`Key ${fingerprint} added to keychain`);
      else if (reason === '0') out.push(`Key ${fingerprint} already exists in keychain`);
    } else if (['IMPORT_PROBLEM', 'NODATA', 'KEYEXPIRED', 'SIGEXPIRED', 'FAILURE'].includes(s.key)) {
      out.push('Unable to add key to keychain');
    }
  }
  return out;
}

/** The keys argument: a comma-separated string or a list (a YAML number as Python's `str`). */
function keyList(keys: unknown): string[] {
  if (keys === null || keys === undefined) throw new SALT_ERR_INVOCATION('keys must be passed.');
  if (typeof keys === 'string') return keys.split(',');
  return [keys].flat().map((k) => pyStr(k));
}

export const search_keys = defineFunction({
  args: (z) =>
    z.object({
      text: z.union([z.string(), z.number()]).transform((v) => pyStr(v)),
      keyserver: z.string().nullish(),
      user: z.string().nullish(),
    }),
  doc: `Search a keyserver for keys: text is an email address, a name, a key id or a fingerprint; keyserver defaults to ${DEFAULT_KEYSERVER}. Returns a list of {keyid, uids, expires, created, keyLength} as the keyserver gave them.${USER_DOC.replace(/; gnupghome[^.]*\./, '.')}${cli("salt '*' gpg.search_keys user@example.com keyserver=hkp://keyserver.ubuntu.com")}`,
  run: async (ctx, a) => {
    const home = await gpgHome(ctx, a.user);
    let query = a.text.trim();
    if (/^[0-9a-f]+$/i.test(query)) query = `0x${query}`;
    const keyserver = a.keyserver || DEFAULT_KEYSERVER;
    const r = await runGpg(home, ['--fingerprint', '--keyserver', keyserver, '--search-keys', query], {
      input: '',
    });
    return parseSearch(r.stdout.toString('utf8')).map(shapeFound);
  },
});

export const receive_keys = defineFunction({
  args: (z) =>
    z.object({
      keyserver: z.string().nullish(),
      keys: keyIds(z),
      ...keyring(z),
    }),
  doc: `Fetch keys from a keyserver into the keychain: keys is a list or a comma-separated string of key ids or fingerprints; keyserver defaults to ${DEFAULT_KEYSERVER}. Returns {res, changes, message: [one line per key]}.${USER_DOC}${cli("salt '*' gpg.receive_keys keys=3FAD9F1E keyserver=hkp://keyserver.ubuntu.com")}`,
  run: (ctx, a) =>
    withOwnership(ctx, a.user, a.gnupghome, async () => {
      const home = await gpgHome(ctx, a.user, a.gnupghome);
      const keys = keyList(a.keys);
      const keyserver = a.keyserver || DEFAULT_KEYSERVER;
      const r = await runGpg(home, ['--keyserver', keyserver, '--recv-keys', ...keys], { input: '' });
      return { res: true, changes: {}, message: receiveMessages(r.status) };
    }),
});
