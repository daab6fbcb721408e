/**
 * Salt's `ssh_known_hosts` state module (`salt/states/ssh_known_hosts.py`): a host's key is in a
 * user's or the system's known_hosts file (`present`: by `key` with `enc`, by `fingerprint`,
 * or as the host offers its keys through ssh-keyscan) or is not (`absent`), through the `ssh`
 * execution module. Comments and changes are Salt's.
 */
import path from 'node:path';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

type Entry = { key: string; fingerprint?: string };
type SetResult =
  | { status: 'exists'; keys: string[] }
  | { status: 'error'; error: string }
  | { status: 'updated'; old: Entry[] | null; new: Entry[] };

/** The known_hosts file the state names: `config`, else the user's or the system's default. */
function configOf(user: string | null | undefined, config: string | null | undefined): string {
  return config || (user ? '.ssh/known_hosts' : '/etc/ssh/ssh_known_hosts');
}

const NEED_ABSOLUTE = 'If not specifying a "user", specify an absolute "config".';

const present = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      user: z.string().nullish(),
      fingerprint: z.string().nullish(),
      key: z.string().nullish(),
      port: z.union([z.number(), z.string()]).nullish(),
      enc: z.string().nullish(),
      config: z.string().nullish(),
      hash_known_hosts: z.unknown().default(true),
      timeout: z.unknown().default(5),
      fingerprint_hash_type: z.string().nullish(),
    }),
  doc: 'Verifies that the specified host is known by the specified user (key with enc, or fingerprint, or the keys the host offers).',
  async run(ctx, a): Promise<StateReturn> {
    const { name, user, key, fingerprint, enc } = a;
    const ret: StateReturn = { name, changes: {}, result: ctx.test ? null : true, comment: '' };
    const config = configOf(user, a.config);
    if (!user && !path.isAbsolute(config)) return { ...ret, result: false, comment: NEED_ABSOLUTE };
    if (ctx.test) {
      if (key && fingerprint)
        return { ...ret, result: false, comment: 'Specify either "key" or "fingerprint", not both.' };
      if (key && !enc)
        return { ...ret, result: false, comment: 'Required argument "enc" if using "key" argument.' };
      let result: unknown;
      try {
        result = await ctx.call('ssh.check_known_host', [], {
          user: user ?? null,
          hostname: name,
          key,
          fingerprint,
          config,
          port: a.port,
          fingerprint_hash_type: a.fingerprint_hash_type,
        });
      } catch (err) {
        return { ...ret, result: false, comment: `ssh.check_known_host error: ${(err as Error).message}` };
      }
      if (result && typeof result === 'object' && 'error' in result)
        return { ...ret, result: false, comment: String((result as { error: unknown }).error) };
      if (result === 'exists')
        return { ...ret, result: true, comment: `Host ${name} is already in ${config}` };
      if (result === 'add') return { ...ret, comment: `Key for ${name} is set to be added to ${config}` };
      return { ...ret, comment: `Key for ${name} is set to be updated in ${config}` };
    }
    const result = (await ctx.call('ssh.set_known_host', [], {
      user: user ?? null,
      hostname: name,
      fingerprint,
      key,
      port: a.port,
      enc,
      config,
      hash_known_hosts: a.hash_known_hosts,
      timeout: a.timeout,
      fingerprint_hash_type: a.fingerprint_hash_type,
    })) as SetResult;
    if (result.status === 'exists') return { ...ret, comment: `${name} already exists in ${config}` };
    if (result.status === 'error') return { ...ret, result: false, comment: result.error };
    const changes = { old: result.old, new: result.new };
    const first = result.new[0];
    let comment = `${name}'s key(s) saved to ${config}`;
    if (key) comment = `${name}'s key saved to ${config} (key: ${first?.key})`;
    else if (fingerprint) comment = `${name}'s key saved to ${config} (fingerprint: ${first?.fingerprint})`;
    else if (enc) comment = `${name}'s ${enc} key saved to ${config} (key: ${first?.key})`;
    return { ...ret, changes, comment };
  },
});

export default defineStateModule({
  name: 'ssh_known_hosts',
  doc: 'Control of SSH known_hosts entries (ssh_known_hosts.present, ssh_known_hosts.absent).',
  functions: {
    present,
    absent: defineState({
      args: (z) => z.object({ name: z.string(), user: z.string().nullish(), config: z.string().nullish() }),
      doc: 'Verifies that the specified host is not known by the given user.',
      async run(ctx, { name, user, config: given }): Promise<StateReturn> {
        const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
        const config = configOf(user, given);
        if (!user && !path.isAbsolute(config)) return { ...ret, result: false, comment: NEED_ABSOLUTE };
        const known = await ctx.call('ssh.get_known_host_entries', [], {
          user: user ?? null,
          hostname: name,
          config,
        });
        if (!known || (Array.isArray(known) && known.length === 0))
          return { ...ret, comment: 'Host is already absent' };
        if (ctx.test)
          return { ...ret, result: null, comment: `Key for ${name} is set to be removed from ${config}` };
        const rm = (await ctx.call('ssh.rm_known_host', [], {
          user: user ?? null,
          hostname: name,
          config,
        })) as {
          status: string;
          error?: string;
          comment?: string;
        };
        if (rm.status === 'error') return { ...ret, result: false, comment: String(rm.error) };
        return { ...ret, changes: { old: known, new: null }, result: true, comment: String(rm.comment) };
      },
    }),
  },
});
