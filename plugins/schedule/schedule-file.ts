/**
 * Where a saved schedule lives and how it is written (Salt's `Schedule.persist`):
 * `<config_dir>/<dirname(default_include)>/_schedule.conf`, so `minion.d/_schedule.conf`, which
 * the config loader reads back at the next start like any other include. Only the configured
 * jobs are written (never the pillar's), as `schedule:` YAML; the file is replaced whole through a
 * temporary file, so a crash mid-write leaves the previous one.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SaltFloat } from '../../kernel/util.js';
import { floatScalars } from '../../modules/_yaml-dump.js';

type YamlLib = typeof import('yaml');
let yamlLib: YamlLib | undefined;

/** The saved schedule's path for a config with `config_dir` and `default_include`. */
export function scheduleFile(opts: Readonly<Record<string, unknown>>): string {
  const configDir = typeof opts.config_dir === 'string' ? opts.config_dir : '/etc/salt';
  const include = typeof opts.default_include === 'string' ? opts.default_include : 'minion.d/*.conf';
  return join(configDir, dirname(include), '_schedule.conf');
}

/** Writes `{schedule}` to `path` (its folder made when missing). */
export async function writeScheduleFile(
  path: string,
  schedule: Readonly<Record<string, unknown>>,
): Promise<void> {
  yamlLib ??= createRequire(import.meta.url)('yaml') as YamlLib;
  // a whole float is written as Salt's YAML writes it (`seconds: 1.0`)
  const text = yamlLib.stringify({ schedule }, floatScalars(yamlLib), { version: '1.1', indentSeq: false });
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode: 0o600 });
  await rename(tmp, path);
}

/** The saved `schedule:` mapping, `{}` when there is no file or no schedule in it. */
export async function readScheduleFile(path: string): Promise<Record<string, unknown>> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  return text === undefined ? {} : parseSchedule(text, path);
}

// a number written with a point and only zeros after it (`1.0`, `60.`): a whole float
const WHOLE_FLOAT = /\d\.0*(?!\d)/;

/**
 * The saved schedule when its text may hold a whole float, else `{}`: what a starting minion
 * needs for {@link withSavedFloats}, without loading the renderers (~23 MiB, ~0.6 s) for the
 * common file that has none (the saved mine job's `minutes: 60`).
 */
export async function readScheduleFloats(path: string): Promise<Record<string, unknown>> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  return text !== undefined && WHOLE_FLOAT.test(text) ? parseSchedule(text, path) : {};
}

async function parseSchedule(text: string, path: string): Promise<Record<string, unknown>> {
  // read as Salt's YAML loader reads it: a whole float written `1.0` stays a float
  const { loadYaml } = await import('../renderers/index.js');
  const loaded = loadYaml(text, { path });
  const schedule =
    loaded && typeof loaded === 'object' ? (loaded as Record<string, unknown>).schedule : undefined;
  return typeof schedule === 'object' && schedule !== null && !Array.isArray(schedule)
    ? (schedule as Record<string, unknown>)
    : {};
}

/**
 * `configured` with the whole floats of `saved` (what {@link readScheduleFile} read) put back:
 * the config loader reads `_schedule.conf`'s `seconds: 1.0` as 1 where Salt's keeps a float, so
 * a restarted minion would list `seconds: 1`. A value is replaced only where the loaded one is
 * that same number, so a job the main config file changed keeps what the config says.
 */
export function withSavedFloats(configured: unknown, saved: unknown): unknown {
  if (saved instanceof SaltFloat) return configured === saved.value ? saved : configured;
  if (Array.isArray(configured) && Array.isArray(saved))
    return configured.map((v, i) => withSavedFloats(v, saved[i]));
  if (!isPlainMap(configured) || !isPlainMap(saved)) return configured;
  const out: Record<string, unknown> = { ...configured };
  for (const [k, v] of Object.entries(saved)) if (k in out) out[k] = withSavedFloats(out[k], v);
  return out;
}

const isPlainMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof SaltFloat);
