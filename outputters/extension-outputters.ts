/**
 * Outputters beyond the built-in ones, as a plugin kind: `--out NAME` (or a function's declared
 * outputter) that is not built in is looked up, only then, in `<extension_modules>/output/`
 * (Salt's folder for custom outputters) and in the `tsalt.outputters` folder of each npm
 * package named in the config's `extensions`. A unit is a `.mjs`/`.js` file whose default
 * export is `defineOutputter({ name, render })`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadBuiltinOutputter } from './builtin.js';
import { nestedFallback } from './fallback.js';
import type { Outputter } from './types.js';

export interface OutputterSearch {
  extension_modules: string;
  extensions: readonly string[];
}

function isOutputter(v: unknown): v is Outputter {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as Outputter).name === 'string' &&
    typeof (v as Outputter).render === 'function'
  );
}

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** Extension outputters this process loaded, by name. */
const loaded = new Map<string, Outputter>();

/** The outputter `name`, loading it from the extension folders if it is not built in. */
export async function findOutputter(name: string, search: OutputterSearch): Promise<Outputter | undefined> {
  const found = (await loadBuiltinOutputter(name)) ?? loaded.get(name);
  if (found) return found;
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return undefined;
  const { resolvePackageDirs } = await import('../kernel/services.js');
  const dirs = [
    join(search.extension_modules, 'output'),
    ...resolvePackageDirs(search.extensions, { resolveFrom: process.cwd(), kind: 'outputters', log: quiet }),
  ];
  for (const dir of dirs) {
    for (const ext of ['.mjs', '.js']) {
      const file = join(dir, `${name}${ext}`);
      if (!existsSync(file)) continue;
      const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
      if (!isOutputter(mod.default) || mod.default.name !== name) continue;
      loaded.set(name, mod.default);
      return mod.default;
    }
  }
  return undefined;
}

/**
 * The outputter a CLI prints with for `--out=<name>` or a function's declared outputter (Salt's
 * `get_printout`): `text` means `txt`; none or an empty name means `nested`; an unknown name
 * falls back to `nested`, with Salt's error line on stderr.
 */
export async function resolveOutputterAsync(
  name: string | undefined,
  search: OutputterSearch,
): Promise<Outputter> {
  const wanted = name === 'text' ? 'txt' : name || 'nested';
  const found = await findOutputter(wanted, search);
  return found ?? nestedFallback(wanted, (await loadBuiltinOutputter('nested')) as Outputter);
}
