import { statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createModuleLoader } from '../kernel/loader/module-loader.js';
import { readReturnerDef } from '../kernel/loader/returner-loader.js';
import { silentLogger } from '../kernel/log.js';
import { createRunnerLoader, createWheelLoader } from '../kernel/runners/loader.js';
import { BUILTIN_DIRS, BUILTIN_RETURNERS } from './builtin-dirs.js';

describe('the built-in folders of every unit kind', () => {
  it('names folders that exist', () => {
    for (const [kind, dir] of Object.entries(BUILTIN_DIRS)) {
      expect(statSync(dir).isDirectory(), kind).toBe(true);
    }
  });

  it('execution modules: the module loader finds test.ping there', async () => {
    const loader = createModuleLoader({
      dirs: [],
      builtinDirs: [BUILTIN_DIRS.modules],
      virtualContext: { opts: {}, grains: {} },
      tsLoader: true,
      log: silentLogger(),
    });
    expect(await loader.get('test.ping')).toBeDefined();
  });

  it('loads the built-in runners and wheel modules', async () => {
    const runners = createRunnerLoader({}, silentLogger(), [BUILTIN_DIRS.runners]);
    expect(await runners.listFunctions('jobs')).toContain('jobs.lookup_jid');
    expect(await runners.get('test.arg')).toBeDefined();
    const wheel = createWheelLoader({}, silentLogger(), [BUILTIN_DIRS.wheel]);
    expect(await wheel.listFunctions('key')).toContain('key.list_all');
  });

  // the named-unit finder takes compiled files only: here, under vitest, the sources are read
  it('engines and beacons: each is in its folder, in the file named after it', async () => {
    for (const [dir, name] of [
      [BUILTIN_DIRS.engines, 'webhook'],
      [BUILTIN_DIRS.engines, 'tail'],
      [BUILTIN_DIRS.beacons, 'load'],
    ] as const) {
      const def = (
        (await import(pathToFileURL(join(dir, `${name}.ts`)).href)) as { default: { name: string } }
      ).default;
      expect(def.name).toBe(name);
    }
  });

  it('returners: each entry file default-exports the returner of its name', async () => {
    expect(Object.keys(BUILTIN_RETURNERS).sort()).toEqual([
      'job_store',
      'local',
      'local_cache',
      'mattermost',
      'postgres',
      'redis',
    ]);
    for (const [name, url] of Object.entries(BUILTIN_RETURNERS)) {
      const def = readReturnerDef(await import(url.href));
      expect(typeof def === 'string' ? def : def.name).toBe(name);
    }
  });
});
