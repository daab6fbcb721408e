/**
 * git_pillar's global options (Salt's `git_pillar_*` in `salt/config/__init__.py`): defaults a
 * remote's own parameters override, on the master and, for masterless pillar, the minion.
 */
import {
  boolOption,
  type ConfigWithExtra,
  collectionOption,
  defineOptions,
  intOption,
  type OptionsInput,
  stringOption,
} from '../../../kernel/index.js';
import { DEFAULT_REFSPECS, stringListSchema } from '../../git/index.js';

export const gitPillarOptionSet = defineOptions(['master', 'minion'], {
  git_pillar_base: stringOption(
    'master',
    'The branch an `__env__` git_pillar remote checks out for the `base` pillarenv.',
  ),
  git_pillar_branch: stringOption('master', 'The branch of a git_pillar remote given without one.'),
  git_pillar_env: stringOption('', 'The pillarenv of every git_pillar remote (default: from its branch).'),
  git_pillar_root: stringOption('', 'Subfolder of every git_pillar remote holding its top file and SLS.'),
  git_pillar_fallback: stringOption('', 'Branch or tag checked out when a remote lacks the one asked for.'),
  git_pillar_includes: boolOption(
    true,
    'SLS of other git_pillar remotes of the same `git` entry and pillarenv can be included and targeted.',
  ),
  git_pillar_refspecs: collectionOption(
    stringListSchema,
    [...DEFAULT_REFSPECS],
    'Refspecs every git_pillar remote fetches; branches land under `refs/remotes/origin/`, tags under `refs/tags/`.',
    'string | list of strings',
  ),
  git_pillar_update_interval: intOption(60, 'Seconds between fetches of the git_pillar remotes.', { min: 1 }),
  git_pillar_ssl_verify: boolOption(true, 'Verify the TLS certificates of https git_pillar remotes.'),
  git_pillar_provider: stringOption(
    '',
    'Accepted for compatibility: tsalt always runs the `git` program (Salt: pygit2 or gitpython).',
  ),
  git_pillar_global_lock: boolOption(
    true,
    'Accepted for compatibility (tsalt always takes a per-remote lock).',
  ),
  git_pillar_verify_config: boolOption(true, 'Accepted for compatibility (remotes are always checked).'),
  git_pillar_user: stringOption('', 'User name for https git_pillar remotes (with `git_pillar_password`).'),
  git_pillar_password: stringOption(
    '',
    'Password for https git_pillar remotes (passed to git through its environment).',
  ),
  git_pillar_insecure_auth: boolOption(false, 'Allow user/password auth on plain http git_pillar remotes.'),
  git_pillar_pubkey: stringOption('', 'Public key file for ssh git_pillar remotes.'),
  git_pillar_privkey: stringOption('', 'Private key file for ssh git_pillar remotes (`ssh -i`).'),
  git_pillar_passphrase: stringOption('', 'Passphrase of `git_pillar_privkey`.'),
});

declare module '../../../kernel/index.js' {
  interface MasterPluginOptions extends OptionsInput<typeof gitPillarOptionSet> {}
  interface MinionPluginOptions extends OptionsInput<typeof gitPillarOptionSet> {}
}

export type GitPillarOptions = ReturnType<typeof gitPillarOptionSet.read> & { cachedir: string };

/** The options from a resolved config (plugin options in `extra`) or a plain mapping. */
export function gitPillarOptions(config: Readonly<Record<string, unknown>>): GitPillarOptions {
  const hit = parsed.get(config);
  if (hit) return hit;
  const extra = (config.extra ?? config) as Readonly<Record<string, unknown>>;
  const o = gitPillarOptionSet.read({ extra, conf_file: config.conf_file } as ConfigWithExtra);
  const cachedir = typeof config.cachedir === 'string' ? config.cachedir : '/var/cache/salt/master';
  const out = { ...o, cachedir };
  parsed.set(config, out);
  return out;
}

/** Read once per config object (a compile per minion reads them again). */
const parsed = new WeakMap<object, GitPillarOptions>();
