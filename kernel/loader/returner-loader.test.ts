import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineReturner } from '../jobs/returner.js';
import { sendToReturners } from '../jobs/returner-calls.js';
import type { JobReturn } from '../jobs/types.js';
import type { UnitLogger } from './define.js';
import { createReturnerLoader } from './returner-loader.js';

function recorder(): { log: UnitLogger; lines: string[] } {
  const lines: string[] = [];
  const none = () => {};
  const keep = (o: object | string, msg?: string) => lines.push(msg ?? String(o));
  return { log: { trace: none, debug: none, info: none, warn: keep, error: keep }, lines };
}

const unit = (body: string) => `export default { ${body} };\n`;

describe('returner loader', () => {
  let root = '';
  let extDir = '';
  let builtin: Record<string, URL> = {};
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsalt-retload-'));
    extDir = join(root, 'ext');
    await mkdir(extDir);
    // the caller's built-ins (the daemons pass plugins/builtin-dirs.ts)
    await mkdir(join(root, 'builtin'));
    await writeFile(
      join(root, 'builtin', 'local-cache.mjs'),
      unit(`name: 'local_cache', async returner() {}`),
    );
    builtin = { local_cache: pathToFileURL(join(root, 'builtin', 'local-cache.mjs')) };
    await writeFile(join(extDir, 'file-sink.mjs'), unit(`name: 'file_sink', async returner() {}`));
    await writeFile(join(extDir, 'oddname.mjs'), unit(`name: 'renamed', async returner() {}`));
    await writeFile(
      join(extDir, 'refuses.mjs'),
      unit(
        `name: 'refuses', virtual: () => ({ ok: false, reason: 'no client library' }), async returner() {}`,
      ),
    );
    await writeFile(join(extDir, 'broken.mjs'), unit(`name: 'broken'`));
    await writeFile(
      join(extDir, 'throws.mjs'),
      unit(`name: 'throws', async returner() { throw new Error('disk full'); }`),
    );
    await writeFile(join(extDir, 'hangs.mjs'), unit(`name: 'hangs', returner: () => new Promise(() => {})`));
    const pkg = join(root, 'node_modules', 'tsalt-ret-pkg');
    await mkdir(join(pkg, 'returners'), { recursive: true });
    await writeFile(
      join(pkg, 'package.json'),
      JSON.stringify({ name: 'tsalt-ret-pkg', tsalt: { returners: './returners' } }),
    );
    await writeFile(join(pkg, 'returners', 'from-pkg.mjs'), unit(`name: 'from_pkg', async returner() {}`));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const loaderFor = (extra: Partial<Parameters<typeof createReturnerLoader>[0]> = {}) =>
    createReturnerLoader({
      dirs: [extDir],
      packages: ['tsalt-ret-pkg'],
      resolveFrom: root,
      builtin,
      opts: { cachedir: root },
      log: recorder().log,
      ...extra,
    });

  it('finds returners by name in extension folders, packages and built-ins', async () => {
    const loader = loaderFor();
    expect((await loader.get('file_sink')).source).toBe(join(extDir, 'file-sink.mjs'));
    expect((await loader.get('renamed')).source).toBe(join(extDir, 'oddname.mjs'));
    expect((await loader.get('from_pkg')).source).toContain('from-pkg.mjs');
    expect((await loader.get('local_cache')).source).toBe('builtin');
  });

  it('prefers a returner registered by a plugin', async () => {
    const mine = defineReturner({ name: 'file_sink', async returner() {} });
    const loader = loaderFor({ registered: (n) => (n === 'file_sink' ? mine : undefined) });
    expect((await loader.get('file_sink')).def).toBe(mine);
  });

  it('refuses with a clear reason: missing, disabled, virtual refusal, not a returner', async () => {
    const loader = loaderFor({ disabled: ['file_sink'] });
    await expect(loader.get('nope')).rejects.toMatchObject({
      code: 'SALT_ERR_RETURNER_UNAVAILABLE',
      message: `returner "nope" is not available: 'nope' is not available`,
    });
    await expect(loader.get('file_sink')).rejects.toThrow(/disabled by disable_returners/);
    await expect(loader.get('refuses')).rejects.toThrow(/no client library/);
    await expect(loader.get('broken')).rejects.toThrow(/`returner` must be a function/);
  });

  it('validates options with the returner schema and names the returner', () => {
    const def = defineReturner({
      name: 'typed',
      options: z.object({ host: z.string(), port: z.number().default(6379) }),
      async returner() {},
    });
    const loader = createReturnerLoader({
      dirs: [],
      builtin: {},
      opts: { 'typed.host': 'db1', 'alt.typed.host': 'db2', 'typed.port': 'x' },
      log: recorder().log,
    });
    expect(() => loader.context(def)).toThrow(/invalid options for returner "typed": port: /);
    const ok = createReturnerLoader({
      dirs: [],
      builtin: {},
      opts: { extra: { 'typed.host': 'db1', 'alt.typed.host': 'db2' } },
      log: recorder().log,
    });
    expect(ok.context(def).options).toEqual({ host: 'db1', port: 6379 });
    expect(ok.context(def, { retConfig: 'alt' }).options).toEqual({ host: 'db2', port: 6379 });
    expect(ok.context(def, { retConfig: 'alt', retKwargs: { port: 7000 } }).options).toEqual({
      host: 'db2',
      port: 7000,
    });
  });

  it('one failing, hanging or missing returner never stops the others', async () => {
    const rec = recorder();
    const loader = createReturnerLoader({ dirs: [extDir], builtin: {}, opts: {}, log: rec.log });
    const ret = {
      id: 'm1',
      jid: '20261122133100000000',
      fun: 'test.ping',
      fun_args: [],
      return: true,
      retcode: 0,
      success: true,
    } as JobReturn;
    const outcomes = await sendToReturners(
      loader,
      ['throws', 'missing_one', 'hangs', 'file_sink'],
      ret,
      {},
      rec.log,
      200,
    );
    expect(outcomes.map((o) => [o.name, o.ok])).toEqual([
      ['throws', false],
      ['missing_one', false],
      ['hangs', false],
      ['file_sink', true],
    ]);
    expect(rec.lines).toContain('The return failed for job 20261122133100000000: disk full');
    expect(rec.lines.some((l) => l.startsWith('Returner missing_one.returner could not be loaded:'))).toBe(
      true,
    );
    expect(rec.lines.some((l) => /returner "hangs" failed in returner: no answer/.test(l))).toBe(true);
  });
});
