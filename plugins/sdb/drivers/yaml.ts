/**
 * The `yaml` sdb driver (Salt's `salt/sdb/yaml.py`): the profile's `files`, each loaded as Salt
 * loads YAML and merged in order (`merge: { strategy, merge_lists }`, Salt's dictupdate, `smart`
 * by default); a key is a `:` path into the result (`app:db:pass`, list indexes too). With
 * `gpg: true` the data first goes through the gpg renderer. A file that cannot be read is logged
 * (its path only) and skipped, as in Salt. The store is read-only: `set` fails as Salt's does.
 */
import { readFile } from 'node:fs/promises';
import { isDict, pyTruthy, traverseDictAndList } from '../../../kernel/util.js';
import { defineSdb, type SdbContext, type SdbProfile } from '../define.js';
import { SALT_ERR_SDB_VALUE } from '../errors.js';

function mergeOptions(profile: SdbProfile): { strategy: string; mergeLists: boolean; renderer: string } {
  const m = isDict(profile.merge) ? profile.merge : {};
  return {
    strategy: typeof m.strategy === 'string' ? m.strategy : 'smart',
    mergeLists: m.merge_lists === true,
    renderer: typeof m.renderer === 'string' ? m.renderer : 'yaml',
  };
}

/** The files merged, Salt's `_get_values`. */
async function values(profile: SdbProfile, ctx: SdbContext): Promise<Record<string, unknown>> {
  const { loadYaml } = await import('../../renderers/index.js');
  const { mergePillar } = await import('../../pillar/index.js');
  const files = Array.isArray(profile.files) ? profile.files.map(String) : [];
  const m = mergeOptions(profile);
  let out: Record<string, unknown> = {};
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      ctx.log.error({ path: file }, `File '${file}' not found `);
      continue;
    }
    let data: unknown;
    try {
      data = loadYaml(text, { path: file });
    } catch (err) {
      // the loader's message names the file and line; it quotes no value beyond the bad line
      ctx.log.error({ path: file }, `Error deserializing sdb file '${file}': ${(err as Error).message}`);
      continue;
    }
    if (!isDict(data)) {
      ctx.log.error({ path: file }, `Error deserializing sdb file '${file}': not a mapping`);
      continue;
    }
    out = mergePillar(out, data, m.strategy, m.mergeLists, m.renderer);
  }
  return out;
}

/** Salt's `_decrypt`: the data through the gpg renderer (keys in `gpg_keydir`). */
async function decrypt(
  data: Record<string, unknown>,
  profile: SdbProfile,
  ctx: SdbContext,
): Promise<unknown> {
  const { BUILTIN_RENDERERS, DEFAULT_RENDER_LIMITS, NO_SALT_FUNCTIONS } = await import(
    '../../renderers/index.js'
  );
  const gpg = BUILTIN_RENDERERS.find((r) => r.name === 'gpg');
  if (!gpg) return data;
  const files = Array.isArray(profile.files) ? profile.files.map(String) : [];
  return gpg.render(
    data,
    { grains: {}, pillar: {}, opts: ctx.opts, salt: NO_SALT_FUNCTIONS, saltenv: 'base' },
    {
      path: files.join(', ') || 'sdb',
      argline: '',
      limits: DEFAULT_RENDER_LIMITS,
      chain: [],
      checkDeadline() {},
    },
  );
}

export default defineSdb({
  name: 'yaml',
  doc: 'Read-only values from YAML files merged in order.',
  async get(key, profile, ctx) {
    const data = await values(profile, ctx);
    const source = pyTruthy(profile.gpg) ? await decrypt(data, profile, ctx) : data;
    return traverseDictAndList(source, key, null);
  },
  set() {
    // Salt raises its bare NotImplemented exception here
    throw new SALT_ERR_SDB_VALUE('the yaml sdb driver is read-only: edit its files to change a value');
  },
});
