/**
 * Authentication for a git remote (Salt's `pubkey`/`privkey`/`passphrase`, `user`/`password`,
 * `insecure_auth`, checked as `Pygit2.verify_auth` checks them), turned into environment
 * variables for the `git` program: ssh keys through `GIT_SSH_COMMAND ... -i <privkey>`, the
 * key's passphrase and an https password through an askpass script that reads them from the
 * environment. No secret is ever on a command line (where `ps` shows it), in the script, or in
 * an error message.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The auth parameters of one remote (per-remote, else the global `<role>_<param>`). */
export interface GitAuth {
  user?: string;
  password?: string;
  pubkey?: string;
  privkey?: string;
  passphrase?: string;
  insecure_auth?: boolean;
}

export const AUTH_PARAMS = ['user', 'password', 'pubkey', 'privkey', 'passphrase', 'insecure_auth'] as const;

/** An auth configuration that cannot work: the reason, worded as Salt logs it. */
export class GitAuthConfigError extends Error {}

/** Prints the answer git or ssh asks for, from the environment (the script holds no secret). */
const ASKPASS = `#!/bin/sh
case "$1" in
  Username*) printf '%s\\n' "$TSALT_GIT_USER" ;;
  Password*) printf '%s\\n' "$TSALT_GIT_PASSWORD" ;;
  *) printf '%s\\n' "$TSALT_GIT_PASSPHRASE" ;;
esac
`;

function askpassScript(dir: string): string {
  const path = join(dir, 'askpass.sh');
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(tmp, ASKPASS, { mode: 0o700 });
    // rename is atomic: concurrent writers leave one whole script
    renameSync(tmp, path);
  }
  return path;
}

/** `ssh`, `http`, `https`, `file`, `git`; scp-like `user@host:path` is ssh; a bare path is `file`. */
export function transportOf(url: string): { transport: string; address: string } {
  const i = url.indexOf('://');
  if (i < 0)
    return url.startsWith('/') ? { transport: 'file', address: url } : { transport: 'ssh', address: url };
  return { transport: url.slice(0, i).toLowerCase(), address: url.slice(i + 3) };
}

const shQuote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * The environment `git fetch` needs for `url` with `auth`, or `{}` when no auth is configured
 * or the transport takes none (`file://`, `git://`). Throws {@link GitAuthConfigError} for an
 * incomplete or refused configuration (Salt refuses to start the backend in these cases).
 * `helperDir` is a private folder where the askpass script is written once.
 */
export function authEnv(role: string, url: string, auth: GitAuth, helperDir: string): Record<string, string> {
  const has = (k: keyof GitAuth) => Boolean(auth[k]);
  if (!AUTH_PARAMS.some((k) => has(k))) return {};
  const { transport, address } = transportOf(url);
  if (transport === 'file' || transport === 'git') return {};
  if (transport.includes('ssh')) {
    const missing = (['pubkey', 'privkey'] as const).filter((k) => !has(k));
    if (missing.length > 0)
      throw new GitAuthConfigError(`Incomplete authentication information: missing ${missing.join(', ')}`);
    if (!address.split('/')[0]!.includes('@'))
      throw new GitAuthConfigError('Keypair specified, but remote URL is missing a username');
    for (const k of ['pubkey', 'privkey'] as const) {
      if (!existsSync(auth[k]!)) throw new GitAuthConfigError(`SSH ${k} (${auth[k]}) could not be found`);
    }
    const env: Record<string, string> = {
      GIT_SSH_COMMAND: `ssh -i ${shQuote(auth.privkey!)} -o IdentitiesOnly=yes -o BatchMode=${auth.passphrase ? 'no' : 'yes'}`,
    };
    if (auth.passphrase) {
      Object.assign(env, {
        SSH_ASKPASS: askpassScript(helperDir),
        SSH_ASKPASS_REQUIRE: 'force',
        DISPLAY: process.env.DISPLAY ?? ':0',
        TSALT_GIT_PASSPHRASE: auth.passphrase,
      });
    }
    return env;
  }
  if (transport.includes('http')) {
    if (!has('user') && !has('password')) return {};
    const missing = (['user', 'password'] as const).filter((k) => !has(k));
    if (missing.length > 0)
      throw new GitAuthConfigError(`Incomplete authentication information: missing ${missing.join(', ')}`);
    if (transport === 'http' && !auth.insecure_auth) {
      throw new GitAuthConfigError(
        `Authentication is disabled by default on http remotes. Either set ${role}_insecure_auth to True in the master configuration file, set a per-remote config option named 'insecure_auth' to True, or use https or ssh-based authentication.`,
      );
    }
    return {
      GIT_ASKPASS: askpassScript(helperDir),
      TSALT_GIT_USER: auth.user!,
      TSALT_GIT_PASSWORD: auth.password!,
      // credential helpers from the user's git config would answer first: none here
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'credential.helper',
      GIT_CONFIG_VALUE_0: '',
    };
  }
  return {};
}
