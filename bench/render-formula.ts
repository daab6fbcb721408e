/**
 * The render figure (issue 19): a saltstack-formulas style formula (test/fixtures/renderers/
 * formula: map.jinja with import_yaml, grains.filter_by and pillar.get merges, macros, a
 * libtofs-like files_switch) rendered by tsalt's Jinja renderer, and by Salt 3006's own Jinja
 * environment through test/fixtures/renderers/record-formula.py when Salt's source and python3
 * are on this machine. Also the context formula.test.ts renders with (the same stand-ins the
 * Python recorder gives Salt).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderJinja } from '../plugins/renderers/jinja/renderer.js';
import { type SaltFunctionImpl, saltFunctionsFrom } from '../plugins/renderers/salt-functions.js';
import type { RenderContext } from '../plugins/renderers/types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** salt.utils.dictupdate.merge (recursive, lists replaced). */
function merge(a: Obj, b: Obj): Obj {
  const out: Obj = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isObj(v) && isObj(out[k]) ? merge(out[k] as Obj, v) : v;
  return out;
}

function traverse(data: unknown, key: string, def: unknown): unknown {
  let v = data;
  for (const p of key.split(':')) {
    if (!isObj(v) || !Object.hasOwn(v, p)) return def;
    v = v[p];
  }
  return v;
}

/** The formula's render context: grains, pillar and async stand-ins for three salt functions. */
export function formulaContext(root: string): RenderContext {
  const grains: Obj = {
    id: 'web1',
    fqdn: 'web1.example.com',
    os_family: 'Debian',
    osmajorrelease: 12,
    num_cpus: 4,
  };
  const pillar: Obj = { web: { workers: 8, modules: ['ssl'] }, other: 'x' };
  const fns: Record<string, SaltFunctionImpl> = {
    'grains.filter_by': async ([lookup], kw) => {
      const l = lookup as Obj;
      let ret = (l[String(grains[String(kw.grain ?? 'os_family')])] ??
        l[String(kw.default ?? 'default')]) as Obj;
      if (kw.merge) ret = merge({ ...ret }, kw.merge as Obj);
      return ret;
    },
    'pillar.get': async ([key, def], kw) => {
      const d = def ?? kw.default ?? '';
      const v = traverse(pillar, String(key), d);
      return kw.merge && isObj(d) ? merge({ ...d }, isObj(v) ? v : {}) : v;
    },
    'config.get': ([key]) => grains[String(key)] ?? '',
  };
  return {
    grains,
    pillar,
    opts: {},
    salt: saltFunctionsFrom(fns),
    saltenv: 'base',
    sls: 'web',
    slspath: 'web',
    tpldir: 'web',
    tplfile: 'web/init.sls',
    loadFile: async (name) => {
      const path = name.replace(/^salt:\/\//, '');
      const source = await readFile(join(root, path), 'utf8').catch(() => undefined);
      return source === undefined ? undefined : { source, path };
    },
  };
}

export interface RenderBenchResult {
  /** ms per render of each file by tsalt. */
  readonly tsalt: Record<string, number>;
  /** ms per render by Salt's Jinja, when it could run. */
  readonly salt?: Record<string, number>;
  readonly renders: number;
}

/** Renders each formula file `renders` times with tsalt, then with Salt's Jinja if available. */
export async function renderBench(
  repo: string,
  renders: number,
  saltSrc = process.env.TSALT_SALT_SRC ?? '/tmp/wtcli-salt/src',
): Promise<RenderBenchResult> {
  const root = join(repo, 'test/fixtures/renderers/formula');
  const context = formulaContext(root);
  const tsalt: Record<string, number> = {};
  for (const file of ['web/map.jinja', 'web/init.sls']) {
    const source = await readFile(join(root, file), 'utf8');
    for (let i = 0; i < 20; i++) await renderJinja(source, context, { path: file });
    const t0 = performance.now();
    for (let i = 0; i < renders; i++) await renderJinja(source, context, { path: file });
    tsalt[file] = (performance.now() - t0) / renders;
  }
  if (!existsSync(saltSrc)) return { tsalt, renders };
  const r = spawnSync(
    'python3',
    [join(repo, 'test/fixtures/renderers/record-formula.py'), '--bench', String(renders)],
    {
      env: {
        ...process.env,
        PYTHONPATH: [process.env.TSALT_PY_STUBS ?? '/tmp/render-py-stubs', saltSrc].join(':'),
      },
      encoding: 'utf8',
    },
  );
  const salt: Record<string, number> = {};
  for (const m of r.stderr.matchAll(/salt jinja render of (\S+): ([\d.]+) ms/g))
    salt[m[1] as string] = Number(m[2]);
  return Object.keys(salt).length ? { tsalt, salt, renders } : { tsalt, renders };
}
