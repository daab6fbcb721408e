/**
 * From merged raw options to the resolved config: Salt-style coercion, validation against the
 * schema (every bad key reported at once), Salt's derived values (`log_dir`, legacy
 * `keep_jobs`, `sock_dir`, `extension_modules`, `root_dir` prefixing), unknown options kept
 * in `extra` with a warning, and a deep freeze.
 */
import type { z } from 'zod';
import { SALT_ERR_CONFIG_INVALID } from '../errors.js';
import { coerceOptions } from './coerce.js';
import type { ConfigKind } from './constants.js';
import { type DeepReadonly, deepFreeze } from './freeze.js';
import { declaredOption } from './option-set.js';
import { adjustLogFile, resolvePaths } from './paths.js';
import { fallbackMessage, formatIssues, unknownOptionWarning } from './report.js';
import { type MasterSchemaOutput, masterSchema } from './schema-master.js';
import { type MinionSchemaOutput, minionSchema } from './schema-minion.js';

type Resolved<T> = DeepReadonly<
  Omit<T, 'extension_modules'> & {
    /** Absolute: `<root_dir>` + (the configured value or `<cachedir>/extmods`). */
    extension_modules: string;
    /** Options tsalt does not know, as given (Salt returner options such as `mysql.host`). */
    extra: Record<string, unknown>;
  }
>;

/** The master config every consumer receives: validated, absolute paths, deeply frozen. */
export type ResolvedMasterConfig = Resolved<MasterSchemaOutput>;
/** The minion config every consumer receives: validated, absolute paths, deeply frozen. */
export type ResolvedMinionConfig = Resolved<MinionSchemaOutput>;

/** Where the raw options came from, for messages. */
export interface ResolveContext {
  /** Named in the error header: the main config file, or the config directory. */
  label: string;
  /** The file (or `overrides`) a top-level key was last set by. */
  sourceOf?: (key: string) => string | undefined;
}

/** A resolved config and the warnings met on the way (unknown options, deprecations). */
export interface ResolveResult<C> {
  config: C;
  warnings: string[];
}

function schemaFor(kind: ConfigKind): typeof masterSchema | typeof minionSchema {
  return kind === 'master' ? masterSchema : minionSchema;
}

/** Validates and resolves merged raw options. Throws `SALT_ERR_CONFIG_INVALID`. */
export function resolveConfig(
  kind: 'master',
  raw: Record<string, unknown>,
  context: ResolveContext,
): ResolveResult<ResolvedMasterConfig>;
export function resolveConfig(
  kind: 'minion',
  raw: Record<string, unknown>,
  context: ResolveContext,
): ResolveResult<ResolvedMinionConfig>;
export function resolveConfig(
  kind: ConfigKind,
  raw: Record<string, unknown>,
  context: ResolveContext,
): ResolveResult<ResolvedMasterConfig | ResolvedMinionConfig>;
export function resolveConfig(
  kind: ConfigKind,
  raw: Record<string, unknown>,
  context: ResolveContext,
): ResolveResult<ResolvedMasterConfig | ResolvedMinionConfig> {
  const schema = schemaFor(kind);
  const shape: Record<string, z.ZodType> = schema.shape;
  const known = Object.keys(shape);
  const warnings: string[] = [];
  const extra: Record<string, unknown> = {};
  const knownRaw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (Object.hasOwn(shape, key)) knownRaw[key] = value;
    else {
      extra[key] = value;
      // `redis.host`, `returner.postgres.db`: options of a returner or module; `{ driver }`: an sdb profile.
      const profile = (value as { driver?: unknown } | null)?.driver !== undefined;
      if (!key.includes('.') && !profile && declaredOption(key) === undefined)
        warnings.push(unknownOptionWarning(key, known, context.sourceOf?.(key)));
    }
  }

  const input = adjustLogFile(knownRaw, String(shape.log_file?.parse(undefined)));
  // Parsed once per process: zod's JIT would cost more to compile than it saves.
  const result = schema.safeParse(coerceOptions(shape, input), { error: fallbackMessage, jitless: true });
  if (!result.success) {
    const summary = formatIssues(result.error.issues, input, context.sourceOf);
    throw new SALT_ERR_CONFIG_INVALID(context.label, summary, { details: result.error.issues });
  }

  const parsed: MasterSchemaOutput | MinionSchemaOutput = result.data;
  if ('keep_jobs' in parsed && parsed.keep_jobs_seconds === 86400 && parsed.keep_jobs !== 24) {
    // Salt's `get_keep_jobs_seconds`: the legacy hours win while the seconds keep their default.
    parsed.keep_jobs_seconds = parsed.keep_jobs * 3600;
    warnings.push(
      `option "keep_jobs" is deprecated: use keep_jobs_seconds (${parsed.keep_jobs} hours = ${parsed.keep_jobs_seconds} seconds applied)`,
    );
  }
  const resolved = { ...resolvePaths(kind, parsed), extra };
  return { config: deepFreeze(resolved, new Set(['plugins'])), warnings };
}
