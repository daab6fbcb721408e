/**
 * Finds and reads reaction files: an absolute path, a path relative to the config folder, or
 * `salt://path` under the `base` file_roots (the first root that has it), as Salt's reactor
 * accepts; a `*`/`?` glob in the file name expands to the matching files, sorted. Compiled
 * templates are cached by path, size and modification time.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { globMatch } from '../../kernel/util.js';
import { SALT_ERR_REACTOR_FILE, SALT_ERR_REACTOR_RENDER } from './errors.js';
import { compileTemplate, type Template, TemplateError } from './template/index.js';

export interface FileOptions {
  configDir: string;
  /** `file_roots.base`: where `salt://` paths are looked up. */
  baseRoots: readonly string[];
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

/** The files a `reactor:` entry names (globs expanded); a name that matches nothing throws. */
export async function resolveReactionFiles(ref: string, o: FileOptions): Promise<string[]> {
  let candidates: string[];
  if (ref.startsWith('salt://')) {
    const rel = ref.slice('salt://'.length).replace(/^\/+/, '');
    candidates = o.baseRoots.map((root) => join(root, rel));
  } else candidates = [isAbsolute(ref) ? ref : resolve(o.configDir, ref)];
  for (const path of candidates) {
    const name = basename(path);
    if (/[*?[]/.test(name)) {
      const dir = dirname(path);
      const entries = await readdir(dir).catch(() => [] as string[]);
      const hits = entries.filter((e) => globMatch(name, e)).sort();
      if (hits.length > 0) return hits.map((h) => join(dir, h));
    } else if (await exists(path)) return [path];
  }
  const where = ref.startsWith('salt://')
    ? `not found under file_roots base (${o.baseRoots.join(', ') || 'none configured'})`
    : 'no such file';
  throw new SALT_ERR_REACTOR_FILE(ref, where);
}

const cache = new Map<string, { key: string; template: Template }>();

/** The compiled template of a file; syntax errors are SALT_ERR_REACTOR_RENDER with the line. */
export async function loadTemplate(path: string): Promise<Template> {
  let text: string;
  let key: string;
  try {
    const st = await stat(path);
    key = `${st.size}:${st.mtimeMs}`;
    const hit = cache.get(path);
    if (hit && hit.key === key) return hit.template;
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new SALT_ERR_REACTOR_FILE(path, (err as Error).message, { cause: err });
  }
  let template: Template;
  try {
    template = compileTemplate(text);
  } catch (err) {
    if (err instanceof TemplateError) throw new SALT_ERR_REACTOR_RENDER(path, err.line, err.message);
    throw err;
  }
  if (cache.size > 500) cache.clear();
  cache.set(path, { key, template });
  return template;
}
