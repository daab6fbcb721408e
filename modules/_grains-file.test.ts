import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GrainsView } from '../minion/grains-view.js';
import { grainsFilePath, readGrainsFile, writeGrainsFile } from './_grains-file.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'tsalt-grains-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the grains file', () => {
  it('lives next to the minion config file (or in conf_file when it is a folder)', () => {
    const d = tmp();
    expect(grainsFilePath({ conf_file: join(d, 'minion') })).toBe(join(d, 'grains'));
    mkdirSync(join(d, 'conf'));
    expect(grainsFilePath({ conf_file: join(d, 'conf') })).toBe(join(d, 'conf', 'grains'));
    expect(grainsFilePath({ config_dir: d })).toBe(join(d, 'grains'));
  });

  it('reads YAML 1.1 as Salt; absent, empty, non-mapping and bad files are {}', () => {
    const d = tmp();
    const f = join(d, 'grains');
    expect(readGrainsFile(f)).toEqual({ grains: {} });
    writeFileSync(f, 'role: web\nenabled: yes\nwhen: 2024-01-01\nn: 5\n');
    expect(readGrainsFile(f).grains).toEqual({ role: 'web', enabled: true, when: '2024-01-01', n: 5 });
    writeFileSync(f, '');
    expect(readGrainsFile(f).grains).toEqual({});
    writeFileSync(f, '- a\n');
    expect(readGrainsFile(f).grains).toEqual({});
    writeFileSync(f, 'a: [\n');
    const bad = readGrainsFile(f);
    expect(bad.grains).toEqual({});
    expect(bad.error).toMatch(/Bad syntax in grains file/);
  });

  it('writes block-style YAML with sorted keys, atomically, and reads it back', () => {
    const d = tmp();
    const f = join(d, 'sub', 'grains');
    writeGrainsFile(f, { zeta: 1, alpha: { b: [1, 'two'] }, flag: false });
    const text = readFileSync(f, 'utf8');
    expect(text.indexOf('alpha')).toBeLessThan(text.indexOf('zeta'));
    expect(text).not.toContain('{');
    expect(readGrainsFile(f).grains).toEqual({ zeta: 1, alpha: { b: [1, 'two'] }, flag: false });
    expect(readdirSync(join(d, 'sub'))).toEqual(['grains']);
    writeGrainsFile(f, {});
    expect(readGrainsFile(f).grains).toEqual({});
  });
});

describe('GrainsView', () => {
  it('layers core < grains file < config grains and re-reads the file when it changes', () => {
    const d = tmp();
    const file = join(d, 'grains');
    const view = new GrainsView({
      core: { os: 'Debian', id: 'm1', role: 'core' },
      file,
      configured: { env: 'prod' },
    });
    const first = view.current();
    expect(first).toEqual({ os: 'Debian', id: 'm1', role: 'core', env: 'prod' });
    expect(view.current()).toBe(first);
    writeGrainsFile(file, { role: 'web', env: 'dev' });
    expect(view.current()).toEqual({ os: 'Debian', id: 'm1', role: 'web', env: 'prod' });
    writeGrainsFile(file, { role: 'db' });
    expect(view.current().role).toBe('db');
    rmSync(file);
    expect(view.current().role).toBe('core');
  });

  it('deep-merges with grains_deep_merge and reports a bad file', () => {
    const d = tmp();
    const file = join(d, 'grains');
    writeFileSync(file, 'a: {x: 1}\n');
    const errors: string[] = [];
    const view = new GrainsView({
      core: { a: { y: 2 } },
      file,
      configured: {},
      deep: true,
      onError: (m) => errors.push(m),
    });
    expect(view.current()).toEqual({ a: { x: 1, y: 2 } });
    writeFileSync(file, 'a: [\n');
    expect(view.current()).toEqual({ a: { y: 2 } });
    expect(errors).toHaveLength(1);
  });
});
