/**
 * Matchers (Salt's `salt/matchers`, synced from `_matchers` by `saltutil.sync_matchers`): the
 * minion's answer to "does this target address me?" for one target type. A matcher unit named
 * after a built-in type (`glob`, `grain`, `compound`, ...) takes its place, in publishes, in
 * compound words and in the `match` module alike; a new name adds a target type that clients
 * publish with `tgt_type`.
 */
/** What a matcher sees of the minion. */
export interface MatcherContext {
  /** The minion id being matched (the `match` module may ask about another id). */
  readonly id: string;
  readonly grains: Readonly<Record<string, unknown>>;
  readonly pillar: unknown;
  /** The publish's `delimiter` for nested keys (`:` unless the client chose another). */
  readonly delimiter: string;
}

export interface MatcherDef {
  /** The target type this matcher answers, as `tgt_type` names it. */
  name: string;
  doc?: string;
  /**
   * Whether the target `tgt` addresses this minion. Synchronous: it runs for every publish.
   * A throw counts as "not addressed" and is logged.
   */
  match(tgt: unknown, ctx: MatcherContext): boolean;
}

/**
 * Types a matcher. The minion reads the default export of each file in
 * `<extension_modules>/matchers`, a `matchers_dirs` folder or a package's `tsalt.matchers` folder.
 */
export function defineMatcher(def: MatcherDef): MatcherDef {
  return def;
}

export function isMatcherDef(value: unknown): value is MatcherDef {
  const v = value as { name?: unknown; match?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.name === 'string' &&
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(v.name) &&
    typeof v.match === 'function'
  );
}
