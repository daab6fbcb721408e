/**
 * How a daemon's children learn their configuration: the parent passes the config dir and
 * the command-line overrides in `TSALT_BOOT`, and each child resolves the config itself
 * (plugins in a TS config are functions, which cannot cross a process boundary).
 */
export interface BootInfo {
  kind: 'master' | 'minion';
  configDir: string;
  overrides: Record<string, unknown>;
  /**
   * The parent's resolved config as JSON (plugins left out). Children that run no plugins use
   * it as is and skip loading the config code (zod, YAML): faster start, ~15 MiB less each.
   */
  resolved?: Record<string, unknown>;
  /** Whether the config declares kernel plugins (then processes that apply them load it themselves). */
  hasPlugins?: boolean;
  /**
   * Whether the config holds other code (TypeScript reactions): the plugin processes load it
   * themselves; the request server and its threads, which run none of it, keep the JSON copy.
   */
  hasCode?: boolean;
}

/** The JSON-safe part of a resolved config: no plugins, no functions. */
export function resolvedForChildren(config: object): Record<string, unknown> {
  const out = JSON.parse(
    JSON.stringify(config, (key, value: unknown) =>
      key === 'plugins' || typeof value === 'function' || typeof value === 'bigint' ? undefined : value,
    ),
  ) as Record<string, unknown>;
  // a plugin option that holds code (TypeScript reactions) is left out whole, not half: the
  // processes that need it load the config themselves, and the others see its default
  const extra = (config as { extra?: Record<string, unknown> }).extra;
  const kept = out.extra as Record<string, unknown> | undefined;
  if (extra && kept) for (const [key, value] of Object.entries(extra)) if (holdsCode(value)) delete kept[key];
  return out;
}

export const BOOT_ENV = 'TSALT_BOOT';

/** Whether `value` holds a function anywhere (code in a code config: it does not cross a process boundary). */
export function holdsCode(value: unknown, seen = new WeakSet<object>()): boolean {
  if (typeof value === 'function') return true;
  if (typeof value !== 'object' || value === null || seen.has(value)) return false;
  seen.add(value);
  return Object.values(value).some((child) => holdsCode(child, seen));
}

export function bootEnv(info: BootInfo): Record<string, string> {
  return { [BOOT_ENV]: JSON.stringify(info) };
}

export function readBoot(): BootInfo {
  const raw = process.env[BOOT_ENV];
  if (!raw) throw new Error(`${BOOT_ENV} is not set: this entry point is started by a tsalt daemon`);
  return JSON.parse(raw) as BootInfo;
}
