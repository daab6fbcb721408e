/**
 * A plugin's own options (DESIGN.md §5: "plugin options are validated by the plugin's own
 * schema"): `defineOptions('master', { gitfs_remotes: ..., })` declares top-level options with
 * Salt's names that the kernel's schema does not hold. The loader keeps them in `config.extra`
 * without an unknown-option warning; `set.read(config)` validates and types them, once per
 * config. Built with schema-common.ts's option helpers, they show in docs/config.md too.
 */
import { z } from 'zod';
import { SALT_ERR_CONFIG_INVALID } from '../errors.js';
import { coerceOptions } from './coerce.js';
import type { ConfigKind } from './constants.js';
import { fallbackMessage, formatIssues } from './report.js';

/** A config as the loader resolves it: options tsalt's kernel does not know are in `extra`. */
export interface ConfigWithExtra {
  readonly extra: Readonly<Record<string, unknown>>;
  /** Named in errors: the main config file. */
  readonly conf_file?: string;
}

/** One plugin's options: which daemons read them, their schemas, and a typed, validated view. */
export interface OptionSet<S extends Record<string, z.ZodType> = Record<string, z.ZodType>> {
  readonly daemons: readonly ConfigKind[];
  readonly shape: S;
  /** The options' values in `config` (defaults filled in); throws `SALT_ERR_CONFIG_INVALID`. */
  read(config: ConfigWithExtra): z.output<z.ZodObject<S>>;
}

/** What a typed config file may give for `set`'s options. */
export type OptionsInput<T> = T extends OptionSet<infer S> ? z.input<z.ZodObject<S>> : never;

/**
 * Plugin options in a typed master config (`defineConfig`): each plugin merges its own in
 * (`declare module ... { interface MasterPluginOptions extends OptionsInput<typeof x> {} }`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface MasterPluginOptions {}

/** The same for a typed minion config (`defineMinionConfig`). */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface MinionPluginOptions {}

/** Option names some option set declared, for the loader's unknown-option check. */
const declared = new Map<string, OptionSet>();

/** The option set that declared `name`, if any. */
export function declaredOption(name: string): OptionSet | undefined {
  return declared.get(name);
}

/** Every option set declared so far (for docs/config.md). */
export function declaredOptionSets(): OptionSet[] {
  return [...new Set(declared.values())];
}

/**
 * Declares options read by `daemons` (one kind or a list). A name another set already declares
 * is a programming error, thrown here; names the kernel's schema holds are the kernel's, and a
 * set must not repeat them.
 */
export function defineOptions<S extends Record<string, z.ZodType>>(
  daemons: ConfigKind | readonly ConfigKind[],
  shape: S,
): OptionSet<S> {
  const schema = z.object(shape);
  const parsed = new WeakMap<object, z.output<z.ZodObject<S>>>();
  const set: OptionSet<S> = {
    daemons: typeof daemons === 'string' ? [daemons] : daemons,
    shape,
    read(config) {
      const hit = parsed.get(config);
      if (hit !== undefined) return hit;
      const raw: Record<string, unknown> = {};
      for (const key of Object.keys(shape))
        if (config.extra && Object.hasOwn(config.extra, key)) raw[key] = config.extra[key];
      const input = coerceOptions(shape, raw);
      const result = schema.safeParse(input, { error: fallbackMessage, jitless: true });
      if (!result.success) {
        throw new SALT_ERR_CONFIG_INVALID(
          config.conf_file ?? 'the config',
          formatIssues(result.error.issues, input),
          {
            details: result.error.issues,
          },
        );
      }
      parsed.set(config, result.data);
      return result.data;
    },
  };
  for (const key of Object.keys(shape)) {
    if (declared.has(key)) throw new TypeError(`option "${key}" is declared twice`);
    declared.set(key, set as unknown as OptionSet);
  }
  return set;
}
