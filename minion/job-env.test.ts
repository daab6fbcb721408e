import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import { resolveConfig } from '../kernel/config/resolve.js';
import { minionGrainsView } from './job-env.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-jobenv-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('minionGrainsView', () => {
  it('lays core < custom grain modules < grains file < config grains', async () => {
    const ext = join(root, 'extmods');
    mkdirSync(join(ext, 'grains'), { recursive: true });
    writeFileSync(
      join(ext, 'grains', 'layers.mjs'),
      "export default { name: 'layers', grains: (ctx) => ({ os: 'custom', a: 'custom', b: 'custom', c: 'custom', sawId: ctx.core.id }) };\n",
    );
    const etc = join(root, 'etc');
    mkdirSync(etc, { recursive: true });
    writeFileSync(join(etc, 'minion'), '');
    writeFileSync(join(etc, 'grains'), 'b: file\nc: file\n');
    const { config } = resolveConfig(
      'minion',
      { id: 'm1', extension_modules: ext, conf_file: join(etc, 'minion'), grains: { c: 'config' } },
      { label: 'test' },
    );
    const view = await minionGrainsView(config as ResolvedMinionConfig, 'm1', pino({ level: 'silent' }));
    expect(view.current()).toMatchObject({
      id: 'm1',
      os: 'custom',
      a: 'custom',
      b: 'file',
      c: 'config',
      sawId: 'm1',
    });
  });
});
