/**
 * The key listings of Salt's `gpg` module: gpg's `--with-colons` lines read as python-gnupg
 * 0.4.9's `ListKeys` reads them (a `pub`/`sec` line starts a key, the first `fpr` after it is
 * its fingerprint, `uid` lines add user ids with `\xNN` escapes undone), then shaped as Salt's
 * `list_keys`/`get_key` shape them: dates as local `%Y-%m-%d`, trust letters as words.
 */
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { runGpg } from './_gpg-run.js';

/** One key of a listing, the fields Salt reads. */
export interface GpgListedKey {
  keyid: string;
  fingerprint: string;
  uids: string[];
  length: string;
  date: string;
  expires: string;
  ownertrust: string;
  trust: string;
}

/** A key as Salt returns it (its keys in Salt's order). */
export interface GpgKeyInfo {
  keyid?: string;
  fingerprint?: string;
  uids?: string[];
  expires?: string;
  created?: string;
  keyLength?: string;
  ownerTrust?: string;
  trust?: string;
}

/** Salt's `LETTER_TRUST_DICT`. */
const LETTER_TRUST: Readonly<Record<string, string>> = {
  e: 'Expired',
  q: 'Unknown',
  n: 'Not Trusted',
  f: 'Fully Trusted',
  m: 'Marginally Trusted',
  u: 'Ultimately Trusted',
  r: 'Revoked',
  '-': 'Unknown',
};

const BASIC_ESCAPES: Readonly<Record<string, string>> = {
  '\\n': '\n',
  '\\r': '\r',
  '\\f': '\f',
  '\\v': '\v',
  '\\b': '\b',
  '\\0': '\0',
};

/** python-gnupg's unescaping of a uid field. */
export function unescapeUid(uid: string): string {
  let out = uid.replace(/\\x([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  for (const [k, v] of Object.entries(BASIC_ESCAPES)) out = out.split(k).join(v);
  return out;
}

/** Reads a `--with-colons --fixed-list-mode` listing as python-gnupg's `ListKeys`. */
export function parseKeyListing(text: string): GpgListedKey[] {
  const keys: GpgListedKey[] = [];
  let cur: GpgListedKey | undefined;
  let inSub = false;
  for (const raw of text.split(/\r\n|\n|\r/)) {
    if (!raw) break;
    const f = raw.trim().split(':');
    const at = (i: number) => (i < f.length ? (f[i] as string) : 'unavailable');
    switch (f[0]) {
      case 'pub':
      case 'sec':
        cur = {
          keyid: at(4),
          fingerprint: '',
          uids: at(9) ? [at(9)] : [],
          length: at(2),
          date: at(5),
          expires: at(6),
          ownertrust: at(8),
          trust: at(1),
        };
        keys.push(cur);
        inSub = false;
        break;
      case 'fpr':
        if (cur && !inSub) cur.fingerprint = at(9);
        break;
      case 'sub':
      case 'ssb':
        inSub = true;
        break;
      case 'uid':
        cur?.uids.push(unescapeUid(at(9)));
        break;
    }
  }
  return keys;
}

/** python-gnupg's `list_keys(secret)` on keyring `home`. */
export async function listKeys(home: string, secret: boolean): Promise<GpgListedKey[]> {
  const which = secret ? 'secret-keys' : 'keys';
  const r = await runGpg(home, [`--list-${which}`, '--fingerprint', '--fingerprint', '--with-keygrip']);
  return parseKeyListing(r.stdout.toString('utf8'));
}

/** Python's `time.strftime('%Y-%m-%d', time.localtime(float(epoch)))`. */
export function localDate(epoch: string): string {
  const d = new Date(Number.parseFloat(epoch) * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${String(d.getFullYear()).padStart(4, '0')}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

function trustWord(letter: string): string {
  const word = LETTER_TRUST[letter];
  // Salt's LETTER_TRUST_DICT[...] raises KeyError for a letter it does not know
  if (word === undefined)
    throw new SALT_ERR_EXEC_COMMAND(`KeyError: '${letter}' (a gpg trust letter Salt does not map)`);
  return word;
}

/** Writes the fields of `k` into `tmp` as Salt's functions do (keeping what a former match set). */
export function shapeKey(k: GpgListedKey, tmp: GpgKeyInfo = {}): GpgKeyInfo {
  tmp.keyid = k.keyid;
  tmp.fingerprint = k.fingerprint;
  tmp.uids = k.uids;
  if (k.expires) tmp.expires = localDate(k.expires);
  if (k.date) tmp.created = localDate(k.date);
  if (k.length) tmp.keyLength = k.length;
  if (k.ownertrust) tmp.ownerTrust = trustWord(k.ownertrust);
  if (k.trust) tmp.trust = trustWord(k.trust);
  return tmp;
}

/** Salt's `get_key`/`get_secret_key`: the key matching fingerprint, keyid or a short keyid; `false` when none. */
export async function findKey(
  home: string,
  secret: boolean,
  keyid: string | null | undefined,
  fingerprint: string | null | undefined,
): Promise<GpgKeyInfo | false> {
  const tmp: GpgKeyInfo = {};
  for (const k of await listKeys(home, secret)) {
    if (k.fingerprint === fingerprint || k.keyid === keyid || k.keyid.slice(8) === keyid) shapeKey(k, tmp);
  }
  return Object.keys(tmp).length ? tmp : false;
}
