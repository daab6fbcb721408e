import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../kernel/config/index.js';
import { wheelPlugin } from './index.js';
import { wheelOptions } from './options.js';

describe('wheel_dirs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-wheel-dirs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is an option of the master once the wheel plugin is loaded: no unknown-option warning', async () => {
    expect(wheelPlugin().name).toBe('tsalt:wheel');
    writeFileSync(join(dir, 'master'), 'wheel_dirs: [/srv/wheel]\n');
    const { config, warnings } = await loadConfig('master', dir);
    expect(warnings).toEqual([]);
    expect(wheelOptions.read(config).wheel_dirs).toEqual(['/srv/wheel']);
  });
});
