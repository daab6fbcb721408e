/**
 * Salt's `key` wheel (`salt/wheel/key.py`): the master's minion keys, as `salt-key` manages
 * them (kernel/auth/key-manager.ts), callable through the `wheel` clear command.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  defineWheel,
  defineWheelFunction,
  SALT_ERR_RUNNER,
  type WheelContext,
} from '../../../kernel/index.js';
import {
  generateRsaKeyPair,
  KEY_STATES,
  type KeyListing,
  KeyManager,
  type KeyState,
  listKeys,
  matchKeys,
  pemFinger,
  readKey,
  writeKey,
} from '../../../kernel/services.js';
import { isValidMinionId } from '../../../kernel/util.js';

const ALL_STATES: KeyState[] = ['accepted', 'pending', 'rejected', 'denied'];

function str(ctx: WheelContext, key: string): string {
  const v = ctx.opts[key];
  return typeof v === 'string' ? v : '';
}

function manager(ctx: WheelContext): KeyManager {
  return new KeyManager({
    pkiDir: str(ctx, 'pki_dir'),
    cachedir: str(ctx, 'cachedir'),
    rotateAesKey: ctx.opts.rotate_aes_key !== false,
    onEvent: (tag, data) => ctx.fireEvent(tag, data),
  });
}

/** Salt's match: a glob, a comma-separated list of globs, or a list. */
function patterns(match: string | readonly string[]): string[] {
  return (typeof match === 'string' ? match.split(',') : [...match]).map((s) => s.trim()).filter(Boolean);
}

/** Adds `value` under `out[group][name]`. */
function put<T>(out: Record<string, Record<string, T>>, group: string, name: string, value: T): void {
  const g = out[group] ?? {};
  g[name] = value;
  out[group] = g;
}

function matching(listing: KeyListing, match: string | readonly string[], states: readonly KeyState[]) {
  const seen = new Set<string>();
  const out: { id: string; state: KeyState }[] = [];
  for (const p of patterns(match)) {
    for (const k of matchKeys(listing, p, states)) {
      const key = `${k.state}/${k.id}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(k);
      }
    }
  }
  return out;
}

/** Salt's `name_match`: `{dir: [ids]}` of the keys the match names, in their state now. */
async function nameMatch(
  ctx: WheelContext,
  match: string | readonly string[],
): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const k of matching(await listKeys(str(ctx, 'pki_dir')), match, ALL_STATES)) {
    const dir = KEY_STATES[k.state];
    out[dir] = [...(out[dir] ?? []), k.id];
  }
  return out;
}

async function localKeys(pkiDir: string): Promise<string[]> {
  const names = await readdir(pkiDir).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.pem') || n.endsWith('.pub')).sort();
}

const STATUS_OF: Record<string, keyof KeyListing> = {
  pre: 'minions_pre',
  un: 'minions_pre',
  unaccepted: 'minions_pre',
  acc: 'minions',
  accepted: 'minions',
  rej: 'minions_rejected',
  rejected: 'minions_rejected',
  den: 'minions_denied',
  denied: 'minions_denied',
};

const match = z.union([z.string(), z.array(z.string())]);

export default defineWheel({
  name: 'key',
  doc: "Wheel system wrapper for the Salt key system, to manage the master's minion keys.",
  functions: {
    list_all: defineWheelFunction({
      doc: "List all accepted, unaccepted, rejected and denied keys, and the master's own (local).",
      run: async (ctx) => {
        const pki = str(ctx, 'pki_dir');
        return { ...(await listKeys(pki)), local: await localKeys(pki) };
      },
    }),
    list: defineWheelFunction({
      args: z.object({ match: z.string() }),
      doc: 'List the keys of one status: pre/un/unaccepted, acc/accepted, rej/rejected, den/denied, or all.',
      run: async (ctx, { match: status }) => {
        const listing = await listKeys(str(ctx, 'pki_dir'));
        if (status === 'all') return { ...listing };
        const dir = STATUS_OF[status.toLowerCase()];
        if (!dir)
          throw new SALT_ERR_RUNNER(
            `unknown key status ${JSON.stringify(status)}: use pre, acc, rej, den or all`,
          );
        return { [dir]: listing[dir] };
      },
    }),
    name_match: defineWheelFunction({
      args: z.object({ match }),
      doc: 'List all the keys whose minion id matches the glob(s).',
      run: (ctx, { match: m }) => nameMatch(ctx, m),
    }),
    accept: defineWheelFunction({
      args: z.object({
        match,
        include_rejected: z.boolean().default(false),
        include_denied: z.boolean().default(false),
      }),
      doc: 'Accept the pending keys matching the glob(s); returns the matched keys in their state now.',
      run: async (ctx, a) => {
        const km = manager(ctx);
        const states: KeyState[] = [
          'pending',
          ...(a.include_rejected ? ['rejected' as const] : []),
          ...(a.include_denied ? ['denied' as const] : []),
        ];
        await km.accept(matching(await km.list(), a.match, states));
        return nameMatch(ctx, a.match);
      },
    }),
    reject: defineWheelFunction({
      args: z.object({
        match,
        include_accepted: z.boolean().default(false),
        include_denied: z.boolean().default(false),
      }),
      doc: 'Reject the pending keys matching the glob(s); returns the matched keys in their state now.',
      run: async (ctx, a) => {
        const km = manager(ctx);
        const states: KeyState[] = [
          'pending',
          ...(a.include_accepted ? ['accepted' as const] : []),
          ...(a.include_denied ? ['denied' as const] : []),
        ];
        await km.reject(matching(await km.list(), a.match, states));
        return nameMatch(ctx, a.match);
      },
    }),
    delete: defineWheelFunction({
      args: z.object({ match }),
      doc: 'Delete the keys matching the glob(s), in any state; returns what still matches (nothing).',
      run: async (ctx, { match: m }) => {
        const km = manager(ctx);
        await km.delete(matching(await km.list(), m, ALL_STATES));
        return nameMatch(ctx, m);
      },
    }),
    finger: defineWheelFunction({
      args: z.object({ match, hash_type: z.string().optional() }),
      doc: "Return the fingerprints of the keys matching the glob(s): {dir: {id: finger}}; '*' adds the master's own (local).",
      run: async (ctx, { match: m, hash_type }) => {
        const pki = str(ctx, 'pki_dir');
        const hashType = hash_type ?? (str(ctx, 'hash_type') || 'sha256');
        const out: Record<string, Record<string, string>> = {};
        for (const k of matching(await listKeys(pki), m, ALL_STATES)) {
          const pem = await readKey(pki, k.state, k.id);
          if (pem !== undefined) put(out, KEY_STATES[k.state], k.id, pemFinger(pem, hashType));
        }
        if (patterns(m).includes('*')) {
          for (const f of await localKeys(pki)) {
            put(out, 'local', f, pemFinger(await readFile(join(pki, f), 'utf8'), hashType));
          }
        }
        return out;
      },
    }),
    gen: defineWheelFunction({
      args: z.object({ id_: z.string().optional(), keysize: z.number().int().default(2048) }),
      doc: 'Generate a key pair and return it: {pub, priv}. Nothing is stored.',
      run: (_ctx, { keysize }) => {
        const pair = generateRsaKeyPair(keysize);
        return { pub: pair.publicPem, priv: pair.privatePem };
      },
    }),
    gen_accept: defineWheelFunction({
      args: z.object({
        id_: z.string(),
        keysize: z.number().int().default(2048),
        force: z.boolean().default(false),
      }),
      doc: 'Generate a key pair, accept its public key for minion id_ and return the pair: {pub, priv}; {} when the minion already has an accepted key (unless force=True).',
      run: async (ctx, { id_, keysize, force }) => {
        if (!isValidMinionId(id_))
          throw new SALT_ERR_RUNNER(`${JSON.stringify(id_)} is not a valid minion id`);
        const pki = str(ctx, 'pki_dir');
        if (!force && (await readKey(pki, 'accepted', id_)) !== undefined) return {};
        const pair = generateRsaKeyPair(keysize);
        await writeKey(pki, 'accepted', id_, pair.publicPem);
        ctx.fireEvent('salt/key', { result: true, act: 'accept', id: id_ });
        return { pub: pair.publicPem, priv: pair.privatePem };
      },
    }),
  },
});
