import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../log.js';
import { createRunnerLoader, createWheelLoader, runnerSearchDirs } from './loader.js';

describe('runner loader', () => {
  it('searches the built-in folders it is given last', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tsalt-runners-'));
    for (const [dir, body] of [
      ['builtin', "{ name: 'test', functions: { arg: { run: () => 'builtin' } } }"],
      ['wheel', "{ name: 'key', functions: { list_all: { run: () => [] } } }"],
      ['more', "{ name: 'test', functions: { arg: { run: () => 'more' } } }"],
    ] as const) {
      mkdirSync(join(root, dir));
      writeFileSync(join(root, dir, dir === 'wheel' ? 'key.mjs' : 'test.mjs'), `export default ${body};\n`);
    }
    const builtin = createRunnerLoader({}, silentLogger(), [join(root, 'builtin')]);
    expect(await builtin.listFunctions('test')).toEqual(['test.arg']);
    const shadowed = createRunnerLoader({ runner_dirs: [join(root, 'more')] }, silentLogger(), [
      join(root, 'builtin'),
    ]);
    const spec = await shadowed.get('test.arg');
    expect(await spec?.run({} as never, {} as never, { args: [], kwargs: {} } as never)).toBe('more');
    const wheel = createWheelLoader({}, silentLogger(), [join(root, 'wheel')]);
    expect(await wheel.listFunctions('key')).toContain('key.list_all');
    expect(await createWheelLoader({}, silentLogger(), []).listFunctions('key')).toEqual([]);
  });

  it('searches extension_modules/runners and runner_dirs before the built-ins', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tsalt-runners-'));
    mkdirSync(join(root, 'extmods', 'runners'), { recursive: true });
    writeFileSync(
      join(root, 'extmods', 'runners', 'test.mjs'),
      "export default { name: 'test', functions: { mine: { run: () => 'mine' } } };\n",
    );
    const opts = { extension_modules: join(root, 'extmods'), runner_dirs: [join(root, 'more')] };
    expect(runnerSearchDirs('runner', opts, silentLogger())).toEqual([
      join(root, 'extmods', 'runners'),
      join(root, 'more'),
    ]);
    const runners = createRunnerLoader(opts, silentLogger(), []);
    expect(await runners.get('test.mine')).toBeDefined();
  });
});
