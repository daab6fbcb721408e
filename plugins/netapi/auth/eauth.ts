/**
 * A login against the eauth back ends (Salt's `LoadAuth`): the `netapi.eauth` kind's units
 * (eauth-kind.ts; the built-in `file`, `sharedsecret` and `pam`, through Debian's `pamtester`,
 * in builtin-eauth.ts). A back end is usable only when `external_auth` names it.
 * Authentication errors of any kind deny.
 */
import { readFile } from 'node:fs/promises';
import type { ResolvedMasterConfig } from '../../../kernel/index.js';
import { fillAuthList, userListed } from './acl.js';
import { BUILTIN_EAUTH } from './builtin-eauth.js';
import type { AuthLog } from './eauth-file.js';
import type { NetapiEauthDef } from './eauth-kind.js';

export interface EauthConfig {
  external_auth: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  sharedsecret?: string | null;
  permissive_acl?: boolean;
  /** Options tsalt does not define, where `auth.pam.service` and `auth.pam.timeout` live. */
  extra?: Readonly<Record<string, unknown>>;
}

export type AuthOutcome =
  | { ok: true; user: string; eauth: string; groups: string[]; authList: unknown[] }
  | { ok: false; reason: string };

/** Where group membership is read from (tests point these at fixtures). */
export interface GroupFiles {
  group: string;
  passwd: string;
}

const SYSTEM_GROUP_FILES: GroupFiles = { group: '/etc/group', passwd: '/etc/passwd' };

/**
 * The operating-system groups of `user` (primary and supplementary), as Salt's PAM back end
 * reports them; tsalt uses them for every back end so that `name%` entries work with `file`
 * too. Unreadable files mean no groups.
 */
export async function osGroups(user: string, files: GroupFiles = SYSTEM_GROUP_FILES): Promise<string[]> {
  const out = new Set<string>();
  let primaryGid: string | undefined;
  try {
    for (const line of (await readFile(files.passwd, 'utf8')).split('\n')) {
      const f = line.split(':');
      if (f[0] === user) primaryGid = f[3];
    }
  } catch {
    // no passwd file: supplementary groups only
  }
  try {
    for (const line of (await readFile(files.group, 'utf8')).split('\n')) {
      const [name, , gid, members] = line.split(':');
      if (!name) continue;
      if (gid !== undefined && gid === primaryGid) out.add(name);
      if (
        members
          ?.split(',')
          .map((m) => m.trim())
          .includes(user)
      )
        out.add(name);
    }
  } catch {
    return [...out];
  }
  return [...out];
}

export interface EauthOptions {
  log: AuthLog;
  groupFiles?: GroupFiles;
  /** The back ends to check with (default: the built-in ones). */
  backends?: readonly NetapiEauthDef[];
}

/**
 * Checks a login: the back end must be configured, the password right, and the user (or one
 * of its groups) listed under the back end. Resolves with the user's auth list.
 */
export async function authenticate(
  config: EauthConfig,
  eauth: unknown,
  username: unknown,
  password: unknown,
  opts: EauthOptions,
): Promise<AuthOutcome> {
  if (typeof eauth !== 'string' || !eauth) return { ok: false, reason: 'no eauth back end given' };
  if (typeof username !== 'string' || !username || typeof password !== 'string')
    return { ok: false, reason: 'username and password are required' };
  const provider = config.external_auth[eauth];
  if (!provider || typeof provider !== 'object')
    return { ok: false, reason: `the eauth back end ${eauth} is not configured in external_auth` };
  const backends = opts.backends ?? BUILTIN_EAUTH;
  const backend = backends.find((b) => b.name === eauth);
  if (!backend) {
    const known = backends.map((b) => b.name).join(', ');
    opts.log.error({ eauth }, `eauth ${eauth}: unknown back end (tsalt knows ${known})`);
    return { ok: false, reason: 'bad credentials' };
  }
  let passed = false;
  try {
    const master = config as unknown as ResolvedMasterConfig;
    passed = await backend.checkPassword({ username, password, provider, config: master, log: opts.log });
  } catch (err) {
    opts.log.error({ eauth, err: (err as Error).message }, `eauth ${eauth} failed`);
    passed = false;
  }
  if (!passed) return { ok: false, reason: 'bad credentials' };
  const groups = await osGroups(username, opts.groupFiles).catch(() => []);
  if (!userListed(provider, username, groups))
    return { ok: false, reason: `user ${username} is not listed under external_auth:${eauth}` };
  const authList = fillAuthList(provider, username, groups, config.permissive_acl === true);
  return { ok: true, user: username, eauth, groups, authList };
}
