/**
 * Reactions: what the reactor does when an event matches. A reaction file (Salt's SLS form)
 * renders into these; a TypeScript reaction (`defineReaction` in `master.config.ts`, under
 * the `reactions:` option) returns them directly.
 */

/** Runs an execution function on minions (Salt's `local.` and `cmd.` reactions). */
export interface LocalReaction {
  kind: 'local';
  fun: string;
  tgt: string | string[];
  /** `glob` (default), `list`, `grain`, `compound`, ... (Salt's `tgt_type`). */
  tgtType?: string;
  arg?: unknown[];
  kwarg?: Record<string, unknown>;
  /** Returners for the job (Salt's `ret`). */
  ret?: string;
  metadata?: Record<string, unknown>;
}

/** Runs a runner (`runner.`) or a wheel function (`wheel.`) on the master. */
export interface MasterReaction {
  kind: 'runner' | 'wheel';
  fun: string;
  arg?: unknown[];
  kwarg?: Record<string, unknown>;
}

/** Salt's `caller.` reactions (masterless minions): tsalt answers SALT_ERR_REACTOR_REACTION. */
export interface CallerReaction {
  kind: 'caller';
  fun: string;
  arg?: unknown[];
  kwarg?: Record<string, unknown>;
}

export type Reaction = LocalReaction | MasterReaction | CallerReaction;

/** A reaction with where it came from, as the trace events show it. */
export type NamedReaction = Reaction & {
  /** The SLS id (`highstate_run`), or `<reaction name>[<index>]` for TypeScript reactions. */
  id: string;
  /** The reaction file, or `ts:<name>`. */
  source: string;
};

/** The event a reaction sees. */
export interface ReactorEvent {
  tag: string;
  data: Readonly<Record<string, unknown>>;
}

export interface ReactionContext {
  /** The glob of `tags` that matched. */
  readonly glob: string;
  readonly log: {
    info(obj: object, msg?: string): void;
    warn(obj: object, msg?: string): void;
  };
}

/** What `react` may return: nothing (no reaction), one reaction, or several. */
export type ReactionResult = Reaction | readonly Reaction[] | undefined | null;

export interface ReactionDef {
  /** Shown in trace events and `reactor.list`. */
  name: string;
  /** Tag globs (Salt's fnmatch) this reaction listens to. */
  tags: string | readonly string[];
  doc?: string;
  react(event: ReactorEvent, ctx: ReactionContext): ReactionResult | Promise<ReactionResult>;
}

/**
 * Types a TypeScript reaction for the master's `reactions:` option.
 * @example
 * export default defineConfig({
 *   reactions: [
 *     defineReaction({
 *       name: 'highstate-on-start',
 *       tags: 'salt/minion/*\/start',
 *       react: (ev) => ({ kind: 'local', fun: 'state.apply', tgt: String(ev.data.id) }),
 *     }),
 *   ],
 * });
 */
export function defineReaction(def: ReactionDef): ReactionDef {
  return def;
}

/** Whether a value has a reaction's shape (a code config is not trusted). */
export function isReactionDef(value: unknown): value is ReactionDef {
  const v = value as Partial<ReactionDef> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.name === 'string' &&
    v.name !== '' &&
    typeof v.react === 'function' &&
    (typeof v.tags === 'string' || (Array.isArray(v.tags) && v.tags.every((t) => typeof t === 'string')))
  );
}

/** The globs of a reaction, as a list. */
export function reactionGlobs(def: Pick<ReactionDef, 'tags'>): string[] {
  return typeof def.tags === 'string' ? [def.tags] : [...def.tags];
}
