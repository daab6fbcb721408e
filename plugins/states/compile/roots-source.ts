/**
 * SLS files from local folders (Salt's local file client over `file_roots`, what
 * `file_client: local` uses) and a renderer for them through the renderers plugin's pipeline
 * (`jinja|yaml` unless a `#!` line says otherwise). Salt's `list_states`: every `.sls` under
 * the roots, `a/b.sls` → `a.b`, `a/init.sls` → `a`, sorted.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import {
  NO_SALT_FUNCTIONS,
  type RendererDef,
  renderPipeline,
  type SaltFunctions,
} from '../../renderers/index.js';
import type { SlsFile, SlsRenderer, SlsSource } from '../types.js';

/** `file_roots`: saltenv → its folders, searched in order. */
export type FileRoots = Readonly<Record<string, readonly string[]>>;

function walk(dir: string, base: string, out: Set<string>): void {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    const isDir =
      e.isDirectory() || (e.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isDirectory());
    if (isDir) walk(path, base, out);
    else out.add(relative(base, path).split(sep).join('/'));
  }
}

/** An SlsSource over `file_roots`. */
export function rootsSource(roots: FileRoots): SlsSource {
  return {
    async cacheFile(url, saltenv) {
      const rel = url.replace(/^salt:\/\//, '');
      for (const dir of roots[saltenv] ?? []) {
        const path = join(dir, rel);
        if (existsSync(path) && statSync(path).isFile()) return path;
      }
      return false;
    },
    async listStates(saltenv) {
      const files = new Set<string>();
      for (const dir of roots[saltenv] ?? []) walk(dir, dir, files);
      const states = new Set<string>();
      for (const f of files) {
        if (f.endsWith('/init.sls')) states.add(f.replaceAll('/', '.').slice(0, -9));
        else if (f.endsWith('.sls')) states.add(f.replaceAll('/', '.').slice(0, -4));
      }
      return [...states].sort();
    },
    async envs() {
      return Object.keys(roots);
    },
  };
}

export interface RootsRendererOptions {
  roots: FileRoots;
  grains?: Readonly<Record<string, unknown>>;
  pillar?: Readonly<Record<string, unknown>>;
  opts?: Readonly<Record<string, unknown>>;
  /** `salt['mod.fn']` in templates (default: none). */
  salt?: SaltFunctions;
  /** Salt's `renderer` (default `jinja|yaml`). */
  renderer?: string;
  renderers?: ReadonlyMap<string, RendererDef>;
}

/** Renders SLS and top files from `file_roots` with Salt's template variables. */
export function rootsRenderer(o: RootsRendererOptions): SlsRenderer {
  const source = rootsSource(o.roots);
  return async (file: SlsFile) => {
    const text = readFileSync(file.path, 'utf8');
    if (text.trim() === '') return {};
    const tpldir = file.rel.includes('/') ? dirname(file.rel) : '';
    const slspath = file.sls
      ? file.sls
          .split('.')
          .slice(0, file.rel.endsWith('/init.sls') ? undefined : -1)
          .join('/')
      : '';
    const data = await renderPipeline(text, {
      path: file.path,
      defaultPipeline: o.renderer ?? 'jinja|yaml',
      renderers: o.renderers,
      context: {
        grains: o.grains ?? {},
        pillar: o.pillar ?? {},
        opts: o.opts ?? {},
        salt: o.salt ?? NO_SALT_FUNCTIONS,
        saltenv: file.saltenv,
        sls: file.sls,
        slspath,
        tpldir,
        tplfile: file.rel,
        loadFile: async (name, saltenv) => {
          const path = await source.cacheFile(name, saltenv);
          return path ? { source: readFileSync(path, 'utf8'), path } : undefined;
        },
      },
    });
    return data ?? {};
  };
}
