/**
 * The reactor looked at from outside, as the `reactor` runner shows it: what it listens to, and
 * what it would do for an event, without starting anything.
 */
import { type ReactionDef, reactionGlobs } from './define.js';
import { LoopGuard } from './loop-guard.js';
import { Reactor, type ReactorOutcome } from './reactor.js';

/** The reactor's configuration as the master has it. */
export interface ReactorSetup {
  /** Salt's `reactor:` list of `{glob: file | [files]}`. */
  reactor: ReadonlyArray<Readonly<Record<string, string | readonly string[]>>>;
  /** TypeScript reactions. */
  reactions: readonly ReactionDef[];
  /** The master's config dir and `file_roots` base, where reaction files are found. */
  configDir: string;
  fileRoots: readonly string[];
}

/** `{glob: [files]}` entries for what the reactor listens to (TypeScript reactions as `ts:<name>`). */
export function reactorListing(setup: ReactorSetup): Array<Record<string, string | string[]>> {
  const out: Array<Record<string, string | string[]>> = setup.reactor.map((e) =>
    Object.fromEntries(Object.entries(e).map(([k, v]) => [k, typeof v === 'string' ? v : [...v]])),
  );
  for (const r of setup.reactions)
    for (const glob of reactionGlobs(r)) out.push({ [glob]: [`ts:${r.name}`] });
  return out;
}

/** Matches `tag` and renders the reactions for `data` as the reactor would; starts nothing. */
export function reactorDryRun(
  setup: ReactorSetup,
  tag: string,
  data: unknown,
): Promise<ReactorOutcome | undefined> {
  const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined };
  const reactor = new Reactor({
    entries: setup.reactor,
    reactions: setup.reactions,
    files: { configDir: setup.configDir, baseRoots: [...setup.fileRoots] },
    log: quiet,
    guard: new LoopGuard(),
  });
  return reactor.handle(tag, data);
}
