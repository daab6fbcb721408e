import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { matchType } from '../../kernel/services.js';
import { loadMatchers } from './load.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-matchers-'));
const log = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };
const warned: string[] = [];
const recording = { ...log, warn: (_o: unknown, msg?: string) => void warned.push(String(msg)) };

function unit(dir: string, file: string, text: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), text);
}

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('loadMatchers', () => {
  const ext = join(root, 'extmods');
  const extra = join(root, 'extra');
  unit(
    join(ext, 'matchers'),
    'glob.mjs',
    "export default { name: 'glob', match: (tgt, ctx) => tgt === 'everyone' || tgt === ctx.id };\n",
  );
  unit(
    join(ext, 'matchers'),
    'role.mjs',
    "export default { name: 'role', match: (tgt, ctx) => ctx.grains.role === tgt };\n",
  );
  unit(
    join(ext, 'matchers'),
    'thrower.mjs',
    "export default { name: 'thrower', match: () => { throw new Error('no'); } };\n",
  );
  unit(join(ext, 'matchers'), 'broken.mjs', 'export default {{;\n');
  unit(join(ext, 'matchers'), 'plain.mjs', 'export const match = () => true;\n');
  // a later folder's unit of a taken name is not used
  unit(extra, 'role2.mjs', "export default { name: 'role', match: () => true };\n");

  it('loads the valid units by name, skipping (and logging) the broken ones', async () => {
    const table = await loadMatchers({ extensionModules: ext, dirs: [extra], log: recording });
    expect([...table.keys()].sort()).toEqual(['glob', 'role', 'thrower']);
    expect(warned.filter((m) => m.startsWith('matcher file skipped'))).toHaveLength(2);
  });

  it('a custom matcher takes the place of the built-in type, compound words included', async () => {
    const matchers = await loadMatchers({ extensionModules: ext, log });
    const ctx = { grains: { role: 'web' }, matchers };
    expect(matchType('glob', '*', 'm1', {})).toBe(true);
    expect(matchType('glob', '*', 'm1', ctx)).toBe(false);
    expect(matchType('glob', 'everyone', 'm1', ctx)).toBe(true);
    expect(matchType('compound', 'everyone and G@role:web', 'm1', ctx)).toBe(true);
    expect(matchType('compound', 'm* and G@role:web', 'm1', ctx)).toBe(false);
    expect(matchType('role', 'web', 'm1', ctx)).toBe(true);
    expect(matchType('role', 'db', 'm1', ctx)).toBe(false);
  });

  it('a matcher that throws answers false', async () => {
    const matchers = await loadMatchers({ extensionModules: ext, log });
    expect(matchType('thrower', 'x', 'm1', { matchers })).toBe(false);
  });

  it('no folder: an empty table', async () => {
    expect((await loadMatchers({ extensionModules: join(root, 'none'), log })).size).toBe(0);
  });
});
