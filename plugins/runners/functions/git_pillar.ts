/**
 * Salt's `git_pillar` runner (`salt/runners/git_pillar.py`): `update` fetches the git_pillar
 * remotes now (all, or those of one branch and/or one URL or name) and answers, per remote id
 * (`<branch> <url>`, password masked), `True` for new commits, `None` for none, `False` for an
 * error (in the master log).
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction, SALT_ERR_RUNNER } from '../../../kernel/index.js';
import { updateGitPillar } from '../../pillar/index.js';

export default defineRunner({
  name: 'git_pillar',
  doc: 'Runner module to directly manage the git external pillar.',
  functions: {
    update: defineRunnerFunction({
      args: z.object({ branch: z.string().nullish(), repo: z.string().nullish() }),
      doc: 'Fetch one or all configured git_pillar remotes.\n\nCLI Example:\n\n    salt-run git_pillar.update\n    salt-run git_pillar.update branch=master repo=https://foo.com/bar.git\n    salt-run git_pillar.update repo=myrepo',
      run: async (ctx, { branch, repo }) => {
        const filter = { branch: branch ?? undefined, repo: repo ?? undefined };
        const ret = await updateGitPillar(ctx.opts, ctx.log, filter);
        if (Object.keys(ret).length === 0) {
          throw new SALT_ERR_RUNNER(
            branch != null || repo != null
              ? 'Specified git branch/repo not found in ext_pillar config'
              : 'No git_pillar remotes are configured',
          );
        }
        return ret;
      },
    }),
  },
});
