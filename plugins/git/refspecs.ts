/**
 * Fetch refspecs for a mirror (Salt's `gitfs_refspecs` / `git_pillar_refspecs`, global or per
 * remote; default `+refs/heads/*:refs/remotes/origin/*` and `+refs/tags/*:refs/tags/*`). Salt
 * fetches into a clone whose branches live under `refs/remotes/origin/`; the mirror is bare and
 * keeps them under `refs/heads/`, so a destination under `refs/remotes/origin/` is moved there.
 * Refs fetched anywhere else (neither branch nor tag) are kept but serve no saltenv, as in Salt.
 */
import { GitRefspecError } from './refspec-error.js';

export const DEFAULT_REFSPECS: readonly string[] = Object.freeze([
  '+refs/heads/*:refs/remotes/origin/*',
  '+refs/tags/*:refs/tags/*',
]);

const ORIGIN = 'refs/remotes/origin/';

/** Salt's refspecs turned into the mirror's; a malformed one throws {@link GitRefspecError}. */
export function mirrorRefspecs(refspecs: readonly string[]): string[] {
  return refspecs.map((spec) => {
    const s = spec.trim();
    const body = s.startsWith('+') ? s.slice(1) : s;
    if (!body || /[\s\0]/.test(body) || body.startsWith('-') || body.split(':').length > 2) {
      throw new GitRefspecError(spec);
    }
    const [src, dst] = body.split(':') as [string, string | undefined];
    if (!src || dst === undefined || !dst.startsWith(ORIGIN)) return s;
    return `${s.startsWith('+') ? '+' : ''}${src}:refs/heads/${dst.slice(ORIGIN.length)}`;
  });
}
