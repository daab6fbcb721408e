/**
 * Salt's `gpg` state module (`salt/states/gpg.py`, 3006.18): `gpg.present` fetches public keys
 * from a keyserver into a keychain (and sets their owner trust), `gpg.absent` deletes them,
 * through the `gpg` execution module. Salt's behaviour is kept as it is: neither state looks at
 * test=True (they act all the same), `changes` stays empty, a key counts as present only when it
 * is named by its 16-digit key id, `absent` lists the minion user's own keychain and hands
 * `user` and `gnupghome` to `gpg.delete_key` positionally (as its fingerprint and delete_secret),
 * and the module's `{res, message}` returns never fail the state.
 */
import { pyStr } from '../kernel/util.js';
import { keyIds } from '../modules/_gpg-args.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

/** Salt's `_VALID_TRUST_VALUES` and `TRUST_MAP`: a trust level and its word in a listing. */
const TRUST_MAP: Readonly<Record<string, string>> = {
  expired: 'Expired',
  unknown: 'Unknown',
  not_trusted: 'Not Trusted',
  marginally: 'Marginally',
  fully: 'Fully Trusted',
  ultimately: 'Ultimately Trusted',
};

/** A module return as the state reads it: Salt checks `"result" in result`, which the gpg module never sets. */
type ModuleReturn = Record<string, unknown> | string | null | undefined;

/** Salt's `"result" in result and not result["result"]`. */
function failed(r: ModuleReturn): boolean {
  if (typeof r === 'string') return r.includes('result');
  return !!r && 'result' in r && !r.result;
}

/** `keys`, else `name`, as a list. */
function keyNames(name: string, keys: unknown): string[] {
  const k =
    keys === null || keys === undefined || keys === '' || (Array.isArray(keys) && !keys.length) ? name : keys;
  return typeof k === 'string' ? [k] : [k].flat().map((v) => pyStr(v));
}

const present = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      keys: keyIds(z),
      user: z.string().nullish(),
      keyserver: z.string().nullish(),
      gnupghome: z.string().nullish(),
      trust: z.string().nullish(),
    }),
  varkw: true,
  doc: `Ensure GPG public keys are in a keychain, fetching the missing ones from a keyserver

name: the key id (16 hex digits) when keys is not given.
keys: the key id or ids to have.
user: whose keychain; gnupghome: the keychain's directory.
keyserver: where to fetch keys from (default keys.openpgp.org).
trust: the owner trust to set: expired, unknown, not_trusted, marginally, fully, ultimately.`,
  async run(ctx, a): Promise<StateReturn> {
    const { name, user, trust } = a;
    const comment: string[] = [];
    const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
    const listed = (await ctx.call('gpg.list_keys', [], { user, gnupghome: a.gnupghome })) as Array<{
      keyid: string;
      trust?: string;
    }>;
    const current = new Map(listed.map((k) => [k.keyid, k.trust]));
    const setTrust = async (key: string): Promise<void> => {
      const r = (await ctx.call('gpg.trust_key', [], {
        keyid: key,
        trust_level: trust,
        user,
      })) as ModuleReturn;
      if (failed(r) && typeof r === 'object' && r) {
        ret.result = r.result as boolean;
        comment.push(pyStr(r.comment));
      } else comment.push(`Set trust level for ${key} to ${trust}`);
    };
    for (const key of keyNames(name, a.keys)) {
      if (current.has(key)) {
        if (trust) {
          if (!(trust in TRUST_MAP)) comment.push(`Invalid trust level ${trust}`);
          else if (current.get(key) !== TRUST_MAP[trust]) await setTrust(key);
          else comment.push(`GPG Public Key ${key} already in correct trust state`);
        }
        comment.push(`GPG Public Key ${key} already in keychain `);
        continue;
      }
      const r = (await ctx.call('gpg.receive_keys', [a.keyserver, key, user, a.gnupghome])) as ModuleReturn;
      if (failed(r) && typeof r === 'object' && r) {
        ret.result = r.result as boolean;
        comment.push(pyStr(r.comment));
      } else comment.push(`Adding ${name} to GPG keychain`);
      if (trust) {
        if (trust in TRUST_MAP) await setTrust(key);
        else comment.push(`Invalid trust level ${trust}`);
      }
    }
    ret.comment = comment.join('\n');
    return ret;
  },
});

const absent = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      keys: keyIds(z),
      user: z.string().nullish(),
      gnupghome: z.string().nullish(),
    }),
  varkw: true,
  doc: `Ensure GPG public keys are not in a keychain

name: the key id (16 hex digits) when keys is not given.
keys: the key id or ids to remove.
user, gnupghome: handed to gpg.delete_key as Salt hands them (positionally, after the key id).`,
  async run(ctx, a): Promise<StateReturn> {
    const { name } = a;
    const comment: string[] = [];
    const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
    // as Salt's: the minion user's keychain is listed, whatever user and gnupghome say
    const listed = (await ctx.call('gpg.list_keys', [])) as Array<{ keyid: string }>;
    const current = new Set(listed.map((k) => k.keyid));
    for (const key of keyNames(name, a.keys)) {
      if (!current.has(key)) {
        comment.push(`${name} not found in GPG keychain`);
        continue;
      }
      const r = (await ctx.call('gpg.delete_key', [
        key,
        a.user ?? null,
        a.gnupghome ?? null,
      ])) as ModuleReturn;
      if (failed(r) && typeof r === 'object' && r) {
        ret.result = r.result as boolean;
        comment.push(pyStr(r.comment));
      } else comment.push(`Deleting ${name} from GPG keychain`);
    }
    ret.comment = comment.join('\n');
    return ret;
  },
});

export default defineStateModule({
  name: 'gpg',
  doc: 'Management of the GPG keychains: keys fetched from a keyserver, their trust, their removal.',
  functions: { present, absent },
});
