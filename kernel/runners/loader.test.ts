import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../log.js';
import { createRunnerLoader, createWheelLoader, runnerSearchDirs } from './loader.js';

describe('runner loader', () => {
  it('loads the built-in runners and wheel modules', async () => {
    const runners = createRunnerLoader({}, silentLogger());
    expect(await runners.listFunctions('jobs')).toContain('jobs.lookup_jid');
    expect(await runners.get('test.arg')).toBeDefined();
    const wheel = createWheelLoader({}, silentLogger());
    expect(await wheel.listFunctions('key')).toContain('key.list_all');
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
    const runners = createRunnerLoader(opts, silentLogger());
    expect(await runners.get('test.mine')).toBeDefined();
  });
});
