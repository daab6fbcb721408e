import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfigCached, MAX_CACHED_CONFIGS } from './config-cache.js';

describe('loadConfigCached', () => {
  let root: string;
  let conf: string;
  let savedXdg: string | undefined;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tsalt-cfgcache-'));
    conf = join(root, 'etc');
    mkdirSync(conf);
    savedXdg = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = join(root, 'cache');
  });
  afterEach(() => {
    if (savedXdg === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = savedXdg;
    rmSync(root, { recursive: true, force: true });
  });

  /** Marks the cached entry so a test can tell whether it was used. */
  function tamperCache(): void {
    const dir = join(root, 'cache/tsalt');
    for (const f of readdirSync(dir)) {
      const entry = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { config: Record<string, unknown> };
      entry.config.timeout = 777;
      writeFileSync(join(dir, f), JSON.stringify(entry));
    }
  }

  it('keeps at most MAX_CACHED_CONFIGS entries of a kind, the least recently written pruned first', async () => {
    const first = join(root, 'etc-0');
    for (let i = 0; i < MAX_CACHED_CONFIGS + 3; i++) {
      const d = join(root, `etc-${i}`);
      mkdirSync(d);
      writeFileSync(join(d, 'master'), `timeout: ${i + 1}\n`);
      await loadConfigCached('master', d);
      if (i === 0)
        utimesSync(join(root, 'cache/tsalt', readdirSync(join(root, 'cache/tsalt'))[0] as string), 1, 1);
    }
    const left = readdirSync(join(root, 'cache/tsalt')).filter((f) => f.startsWith('master-config-'));
    expect(left).toHaveLength(MAX_CACHED_CONFIGS);
    // the oldest entry went: its config dir loads in full again and is cached anew
    const before = new Set(left);
    await loadConfigCached('master', first);
    const after = readdirSync(join(root, 'cache/tsalt')).filter((f) => f.startsWith('master-config-'));
    expect(after.filter((f) => !before.has(f))).toHaveLength(1);
  });

  it('serves a plain YAML config from the cache until a file changes', async () => {
    writeFileSync(join(conf, 'master'), 'timeout: 9\n');
    expect((await loadConfigCached('master', conf)).config.timeout).toBe(9);
    tamperCache();
    expect((await loadConfigCached('master', conf)).config.timeout).toBe(777);
    writeFileSync(join(conf, 'master'), 'timeout: 10\n');
    utimesSync(join(conf, 'master'), new Date(), new Date(Date.now() + 5000));
    expect((await loadConfigCached('master', conf)).config.timeout).toBe(10);
  });

  it('a new drop-in file invalidates the cache', async () => {
    writeFileSync(join(conf, 'master'), 'timeout: 9\n');
    await loadConfigCached('master', conf);
    tamperCache();
    mkdirSync(join(conf, 'master.d'));
    writeFileSync(join(conf, 'master.d/x.conf'), 'timeout: 11\n');
    expect((await loadConfigCached('master', conf)).config.timeout).toBe(11);
  });

  it('never caches a config that runs code', async () => {
    writeFileSync(join(conf, 'master.config.mjs'), 'export default { timeout: 12 };\n');
    expect((await loadConfigCached('master', conf)).config.timeout).toBe(12);
    expect(() => readdirSync(join(root, 'cache/tsalt'))).toThrow();
  });

  it('still reports an invalid config as the full load does', async () => {
    writeFileSync(join(conf, 'master'), 'ret_port: abc\n');
    await expect(loadConfigCached('master', conf)).rejects.toMatchObject({ code: 'SALT_ERR_CONFIG_INVALID' });
  });
});
