/**
 * Loading a minion's matchers: every unit in `<extension_modules>/matchers`, the
 * `matchers_dirs` folders and the packages' `tsalt.matchers` folders (first file of a stem
 * wins, as the loader's scan orders them; the first unit of a name wins). A file that does not
 * import or does not default-export a `defineMatcher` value is logged and skipped: a broken
 * custom matcher leaves the built-in one in place, never the minion deaf.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { UnitLogger } from '../../kernel/index.js';
import { type CustomMatch, resolvePackageDirs, scanDirs } from '../../kernel/services.js';
import { isMatcherDef, type MatcherDef } from './define.js';

export interface MatcherSources {
  /** The minion's `extension_modules`. */
  extensionModules: string;
  /** `matchers_dirs`. */
  dirs?: readonly string[];
  /** `extensions`: packages that may declare `tsalt.matchers`. */
  packages?: readonly string[];
  log: UnitLogger;
}

/** The folders searched, in order. */
export function matcherDirs(s: MatcherSources): string[] {
  const packageDirs = resolvePackageDirs(s.packages ?? [], {
    resolveFrom: process.cwd(),
    kind: 'matchers',
    log: s.log,
  });
  return [join(s.extensionModules, 'matchers'), ...(s.dirs ?? []), ...packageDirs];
}

/** A unit as the kernel's targeting calls it: the matcher's answer, or false (logged) on a throw. */
function asCustomMatch(def: MatcherDef, log: UnitLogger): CustomMatch {
  return (tgt, id, ctx, delimiter) => {
    try {
      return def.match(tgt, { id, grains: ctx.grains ?? {}, pillar: ctx.pillar, delimiter }) === true;
    } catch (err) {
      log.warn({ matcher: def.name, err: (err as Error).message }, `matcher ${def.name} failed`);
      return false;
    }
  };
}

let generation = 0;

/**
 * The matchers found now, by target type. Each call imports the files anew (a module sync
 * changes them while the minion runs, and Node caches an import by its URL).
 */
export async function loadMatchers(s: MatcherSources): Promise<Map<string, CustomMatch>> {
  const found = await scanDirs(matcherDirs(s), { log: s.log });
  const out = new Map<string, CustomMatch>();
  generation += 1;
  for (const file of found.ordered) {
    let def: unknown;
    try {
      def = ((await import(`${pathToFileURL(file.path).href}?load=${generation}`)) as { default?: unknown })
        .default;
    } catch (err) {
      s.log.warn(
        { path: file.path, err: (err as Error).message },
        'matcher file skipped: it cannot be imported',
      );
      continue;
    }
    if (!isMatcherDef(def)) {
      s.log.warn(
        { path: file.path },
        'matcher file skipped: its default export is not a defineMatcher({ name, match }) value',
      );
      continue;
    }
    if (!out.has(def.name)) out.set(def.name, asCustomMatch(def, s.log));
  }
  return out;
}
