/**
 * Salt's `git` execution module (`salt/modules/git.py`) through the `git` program: the
 * functions `git.latest`/`git.present`/`git.cloned`/`git.config_set` need and the ones users
 * call most. Every command runs as argv (`_git-run.ts`); `user` runs it as that user; https
 * credentials never reach a command line (see `_git-run.ts`). The functions sit in files named
 * for what they touch: remotes (`_git-fns-remote.ts`), config (`_git-fns-config.ts`), refs
 * (`_git-fns-refs.ts`), the working tree (`_git-fns-worktree.ts`).
 */
import { defineFunction, defineModule } from '../kernel/index.js';
import { commitFunctions } from './_git-fns-commit.js';
import { configFunctions } from './_git-fns-config.js';
import { linkedWorktreeFunctions } from './_git-fns-linked.js';
import { refFunctions } from './_git-fns-refs.js';
import { remoteFunctions } from './_git-fns-remote.js';
import { worktreeFunctions } from './_git-fns-worktree.js';
import { gitVersion } from './_git-query.js';
import { which } from './_which.js';

export default defineModule({
  name: 'git',
  doc: 'Support for the Git SCM, through the git program.',
  virtual: () =>
    which('git')
      ? true
      : { ok: false, reason: 'The git execution module cannot be loaded: git unavailable.' },
  functions: {
    version: defineFunction({
      args: (z) => z.object({ versioninfo: z.boolean().default(false) }),
      doc: 'Returns the version of Git installed on the minion (versioninfo=True: as a list).\n\nCLI Example: salt myminion git.version',
      run: async (ctx, a) => {
        const v = await gitVersion(ctx);
        return a.versioninfo ? v.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : v;
      },
    }),
    ...remoteFunctions,
    ...worktreeFunctions,
    ...refFunctions,
    ...configFunctions,
    config_get_regex: configFunctions.config_get_regexp,
    ...commitFunctions,
    ...linkedWorktreeFunctions,
  },
});
