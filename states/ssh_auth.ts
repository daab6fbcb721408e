/**
 * Salt's `ssh_auth` state module (`salt/states/ssh_auth.py`): a public key is in a user's
 * authorized_keys file (`present`, the key alone or as `[options] enc key [comment]`, or every
 * key of a `source` file), is not (`absent`), or the file holds exactly `ssh_keys` (`manage`),
 * through the `ssh` execution module. Comments and changes are Salt's.
 */
import { existsSync } from 'node:fs';
import { KEY_LINE, noKeysError, pyWords, validateKeys } from '../modules/_ssh-auth.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

interface AuthArgs {
  name: string;
  user: string;
  enc: string;
  comment: string;
  source: string;
  options?: string[] | null | undefined;
  config: string;
  fingerprint_hash_type?: string | null | undefined;
}

type Z = typeof import('zod').z;
const common = (z: Z) => ({
  user: z.string(),
  enc: z.string().default('ssh-rsa'),
  comment: z.string().default(''),
  source: z.string().default(''),
  options: z.array(z.string()).nullish(),
  config: z.string().default('.ssh/authorized_keys'),
  fingerprint_hash_type: z.string().nullish(),
});

/** Python's `s.split(None, max)`. */
function pySplitMax(s: string, max: number): string[] {
  const out: string[] = [];
  let rest = s.replace(/^\s+/, '');
  while (rest !== '' && out.length < max) {
    const m = rest.match(/^(\S+)\s*/)!;
    out.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  if (rest !== '') out.push(rest);
  return out;
}

/**
 * A key given as `[options] enc key [comment]` or `key [comment]`, split as Salt does: `rest`
 * (present) keeps the whole remainder as the comment, otherwise only a third word is one.
 */
function splitKey(a: AuthArgs, rest: boolean): AuthArgs {
  const out = { ...a };
  const m = a.name.match(KEY_LINE);
  if (!m) {
    const words = rest ? pySplitMax(a.name, 1) : pyWords(a.name);
    out.name = words[0] ?? '';
    if (words.length === 2) out.comment = words[1]!;
    return out;
  }
  if (m[1]) out.options = m[1].split(',');
  const comps = rest ? pySplitMax(m[2]!, 2) : pyWords(m[2]!);
  out.enc = comps[0]!;
  out.name = comps[1]!;
  if (comps.length === 3) out.comment = comps[2]!;
  return out;
}

/** The error Salt's `check_key_file`/`set_auth_key_from_file` leave for a file without keys. */
async function sourceError(ctx: StateContext, source: string): Promise<string | undefined> {
  const local = (await ctx.call('cp.cache_file', [source, ctx.saltenv])) as string | false;
  if (!local || !existsSync(local)) return undefined;
  return Object.keys(await validateKeys(local, null)).length ? undefined : noKeysError(source);
}

const checkArgs = (a: AuthArgs, key: AuthArgs) => ({
  user: a.user,
  key: key.name,
  enc: key.enc,
  comment: key.comment,
  options: key.options ?? [],
  config: a.config,
  fingerprint_hash_type: a.fingerprint_hash_type,
});

async function sourceStatus(ctx: StateContext, a: AuthArgs): Promise<Record<string, string>> {
  return (await ctx.call('ssh.check_key_file', [a.user, a.source, a.config], {
    saltenv: ctx.saltenv,
    fingerprint_hash_type: a.fingerprint_hash_type,
  })) as Record<string, string>;
}

async function presentTest(ctx: StateContext, a: AuthArgs): Promise<[boolean | null, string]> {
  if (a.source) {
    let comment = '';
    for (const [key, status] of Object.entries(await sourceStatus(ctx, a)))
      if (status !== 'exists') comment += `Set to ${status}: ${key}\n`;
    if (comment) return [null, comment];
    const err = await sourceError(ctx, a.source);
    return err ? [false, err] : [true, `All host keys in file ${a.source} are already present`];
  }
  const key = splitKey(a, false);
  const check = await ctx.call('ssh.check_key', [], checkArgs(a, key));
  if (check === 'update') return [null, `Key ${key.name} for user ${a.user} is set to be updated`];
  if (check === 'add') return [null, `Key ${key.name} for user ${a.user} is set to be added`];
  return [true, `The authorized host key ${key.name} is already present for user ${a.user}`];
}

async function present(ctx: StateContext, given: AuthArgs): Promise<StateReturn> {
  const a = given.source === '' ? splitKey(given, true) : given;
  const { name, user, source } = a;
  const ret: StateReturn = { name: given.name, changes: {}, result: true, comment: '' };
  if (ctx.test) {
    [ret.result, ret.comment] = await presentTest(ctx, { ...a, options: a.options ?? [] });
    return ret;
  }
  let data: unknown;
  if (source !== '') {
    const local = await ctx.call('cp.get_url', [source, null], { saltenv: ctx.saltenv }).catch(() => false);
    data = !local
      ? 'no key'
      : await ctx.call('ssh.set_auth_key_from_file', [user, source], {
          config: a.config,
          saltenv: ctx.saltenv,
          fingerprint_hash_type: a.fingerprint_hash_type,
          options: a.options ?? null,
        });
  } else
    data = await ctx.call('ssh.set_auth_key', [user, name], {
      enc: a.enc,
      comment: a.comment,
      options: a.options ?? [],
      config: a.config,
      fingerprint_hash_type: a.fingerprint_hash_type,
    });
  if (data === 'replace') {
    ret.changes[name] = 'Updated';
    ret.comment = `The authorized host key ${name} for user ${user} was updated`;
  } else if (data === 'no change')
    ret.comment = `The authorized host key ${name} is already present for user ${user}`;
  else if (data === 'new') {
    ret.changes[name] = 'New';
    ret.comment = `The authorized host key ${name} for user ${user} was added`;
  } else if (data === 'no key') {
    ret.result = false;
    ret.comment = `Failed to add the ssh key. Source file ${source} is missing`;
  } else if (data === 'fail') {
    ret.result = false;
    ret.comment =
      (source ? await sourceError(ctx, source) : undefined) ??
      'Failed to add the ssh key. Is the home directory available, and/or does the key file exist?';
  } else if (data === 'invalid' || data === 'Invalid public key') {
    ret.result = false;
    ret.comment = 'Invalid public ssh key, most likely has spaces or invalid syntax';
  }
  return ret;
}

async function absentTest(ctx: StateContext, a: AuthArgs): Promise<[boolean | null, string]> {
  if (a.source) {
    let comment = '';
    for (const [key, status] of Object.entries(await sourceStatus(ctx, a)))
      if (status !== 'add') comment += `Set to remove: ${key}\n`;
    if (comment) return [null, comment];
    const err = await sourceError(ctx, a.source);
    return err ? [false, err] : [true, `All host keys in file ${a.source} are already absent`];
  }
  const key = splitKey(a, false);
  const check = await ctx.call('ssh.check_key', [], checkArgs(a, key));
  if (check === 'update' || check === 'exists')
    return [null, `Key ${key.name} for user ${a.user} is set for removal`];
  return [true, 'Key is already absent'];
}

async function absent(ctx: StateContext, a: AuthArgs): Promise<StateReturn> {
  const ret: StateReturn = { name: a.name, changes: {}, result: true, comment: '' };
  if (ctx.test) {
    [ret.result, ret.comment] = await absentTest(ctx, { ...a, options: a.options ?? [] });
    return ret;
  }
  let name = a.name;
  if (a.source !== '') {
    const local = await ctx.call('cp.get_url', [a.source, null], { saltenv: ctx.saltenv }).catch(() => false);
    if (local)
      ret.comment = (await ctx.call('ssh.rm_auth_key_from_file', [a.user, a.source, a.config], {
        saltenv: ctx.saltenv,
        fingerprint_hash_type: a.fingerprint_hash_type,
      })) as string;
  } else {
    name = splitKey(a, false).name;
    ret.comment = (await ctx.call('ssh.rm_auth_key', [a.user, name], {
      config: a.config,
      fingerprint_hash_type: a.fingerprint_hash_type,
    })) as string;
  }
  if (ret.comment === 'User authorized keys file not present') ret.result = false;
  else if (ret.comment === 'Key removed') ret.changes[name] = 'Removed';
  return ret;
}

async function manage(ctx: StateContext, a: AuthArgs & { ssh_keys: string[] }): Promise<StateReturn> {
  const ret: StateReturn = { name: '', changes: {}, result: true, comment: '' };
  const potential = a.ssh_keys.flatMap((k) => k.split(' '));
  const existing = Object.keys(
    (await ctx.call('ssh.auth_keys', [], {
      user: a.user,
      config: a.config,
      fingerprint_hash_type: a.fingerprint_hash_type,
    })) as Record<string, unknown>,
  );
  for (const key of existing.filter((k) => !potential.includes(k))) {
    if (ctx.test) {
      ret.comment = `${key} Key set for removal`;
      ret.result = null;
    } else ret.changes[key] = (await absent(ctx, { ...a, name: key })).comment;
  }
  for (const key of a.ssh_keys) {
    const one = await present(ctx, { ...a, name: key });
    if (Object.keys(one.changes).length) Object.assign(ret.changes, one.changes);
    else ret.comment = `${String(ret.comment)}\n${String(one.comment)}`.trim();
    if (one.result === null) ret.result = null;
    else if (!one.result) ret.result = false;
  }
  return ret;
}

export default defineStateModule({
  name: 'ssh_auth',
  doc: 'Control of entries in SSH authorized_key files (ssh_auth.present, absent, manage).',
  functions: {
    present: defineState({
      args: (z) => z.object({ name: z.string(), ...common(z) }),
      varkw: true,
      doc: 'Verifies that the specified SSH key is present for the specified user.',
      run: (ctx, a) => present(ctx, a),
    }),
    absent: defineState({
      args: (z) => z.object({ name: z.string(), ...common(z) }),
      doc: 'Verifies that the specified SSH key is absent.',
      run: (ctx, a) => absent(ctx, a),
    }),
    manage: defineState({
      args: (z) => z.object({ name: z.string(), ssh_keys: z.array(z.string()), ...common(z) }),
      varkw: true,
      doc: 'Ensures that only the specified ssh_keys are present for the specified user.',
      run: (ctx, a) => manage(ctx, a),
    }),
  },
});
