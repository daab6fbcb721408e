/**
 * The `git` external pillar (Salt's `salt/pillar/git_pillar.py`): each remote of the entry is
 * checked out (checkout.ts) and compiled as its own `pillar_roots` in its pillarenv, its top
 * file first, with the other remotes of the same entry and pillarenv behind it (Salt's
 * directory overlay; off with `git_pillar_includes: False`); remotes with a `mountpoint` only
 * serve others. The results merge in the order the remotes are listed. Only the pillarenv asked
 * for (if any) is compiled. Rendering errors come back in `_errors`, as from `pillar_roots`.
 */
import { PILLAR_ERR_GIT_REMOTE } from '../errors.js';
import { defineExtPillar } from '../ext-kind.js';
import type { PillarData } from '../merge.js';
import { checkoutRemotes } from './checkout.js';
import { gitPillarOptions } from './options.js';
import { type GitPillarRemote, parseGitPillarRemotes } from './remotes.js';

export const gitPillar = defineExtPillar({
  name: 'git',
  async run(ctx, args) {
    const o = gitPillarOptions(ctx.opts);
    let remotes: GitPillarRemote[];
    try {
      remotes = parseGitPillarRemotes(args, o);
    } catch (err) {
      // Salt's `_errors` entry is this terse text; the reason goes to the log with its code
      if (!(err instanceof PILLAR_ERR_GIT_REMOTE)) throw err;
      ctx.log.error({ code: err.code }, err.message);
      throw new Error('Failed to load git_pillar');
    }
    const dirs = await checkoutRemotes(remotes, o, {
      pillarenv: ctx.pillarenv,
      saltenv: ctx.saltenv,
      fetchFirst: ctx.role === 'minion',
      log: ctx.log,
    });
    let ret: PillarData = {};
    for (const d of dirs) {
      const env = d.env === '__env__' ? ctx.pillarenv || ctx.saltenv || o.git_pillar_base : d.env;
      if (ctx.pillarenv && env !== ctx.pillarenv) continue;
      if (d.linked) continue;
      const roots = [d.dir];
      if (o.git_pillar_includes) {
        for (const other of dirs) if (other.env === d.env && other.dir !== d.dir) roots.push(other.dir);
      }
      ctx.log.debug({ remote: d.remote.id, pillarenv: env }, 'git_pillar is processing pillar SLS');
      ret = ctx.merge(ret, await ctx.compileRoots({ [env]: roots }, env));
    }
    return ret;
  },
});
