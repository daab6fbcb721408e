import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UnitLogger } from './define.js';
import { type CustomGrainsOptions, loadCustomGrains } from './grains-loader.js';

interface LogRecord {
  level: string;
  msg: string | undefined;
}

function captureLog(): { log: UnitLogger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const at =
    (level: string) =>
    (_obj: object | string, msg?: string): void => {
      records.push({ level, msg });
    };
  return {
    log: { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    records,
  };
}

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function unitDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tsalt-grains-'));
  roots.push(dir);
  for (const [name, source] of Object.entries(files)) await writeFile(join(dir, name), source);
  return dir;
}

const unit = (name: string, body: string) => `export default { name: '${name}', grains: ${body} };\n`;

async function load(dirs: string[], extra: Partial<CustomGrainsOptions> = {}) {
  const { log, records } = captureLog();
  const grains = await loadCustomGrains({
    dirs,
    opts: {},
    id: 'm1',
    core: { os: 'Linux', id: 'm1' },
    log,
    ...extra,
  });
  return { grains, warnings: records.filter((r) => r.level === 'warn').map((r) => r.msg ?? '') };
}

describe('loadCustomGrains', () => {
  it('lays units over the core grains in file-name order, each seeing the grains so far', async () => {
    const dir = await unitDir({
      'b.mjs': unit('b', '(ctx) => ({ order: "b", saw: ctx.core.order, id2: ctx.id })'),
      'a.mjs': unit('a', '() => ({ order: "a", os: "custom" })'),
      '_hidden.mjs': unit('h', '() => ({ hidden: true })'),
      'c.test.mjs': unit('t', '() => ({ test: true })'),
      'notes.txt': 'x',
    });
    const { grains, warnings } = await load([dir]);
    expect(grains).toEqual({ os: 'custom', id: 'm1', order: 'b', saw: 'a', id2: 'm1' });
    expect(warnings).toEqual([]);
  });

  it('takes the first file of a stem over dirs, and orders by file name across dirs', async () => {
    const first = await unitDir({ 'z.mjs': unit('z', '() => ({ from: "first-z" })') });
    const second = await unitDir({
      'z.mjs': unit('z', '() => ({ from: "second-z" })'),
      'a.js': unit('a', '() => ({ from: "second-a", a: 1 })'),
    });
    const { grains } = await load([first, second]);
    expect(grains).toMatchObject({ from: 'first-z', a: 1 });
  });

  it('skips a throwing, a slow, a broken and a refusing unit, and keeps the others', async () => {
    const dir = await unitDir({
      'boom.mjs': unit('boom', '() => { throw new Error("kaput"); }'),
      'slow.mjs': unit('slow', '() => new Promise((r) => setTimeout(() => r({ slow: true }), 5000))'),
      'bad.mjs': 'export default { name: "bad" };\n',
      'nope.mjs': `export default { name: 'nope', virtual: () => ({ ok: false, reason: 'no' }), grains: () => ({ nope: 1 }) };\n`,
      'notobj.mjs': unit('notobj', '() => 42'),
      'ok.mjs': unit('ok', 'async () => ({ ok: true })'),
    });
    const started = Date.now();
    const { grains, warnings } = await load([dir], { timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(grains).toEqual({ os: 'Linux', id: 'm1', ok: true });
    expect(warnings).toHaveLength(4);
    expect(warnings.find((w) => w.includes('boom'))).toContain('kaput');
    expect(warnings.find((w) => w.includes('slow'))).toContain('timed out after 200 ms');
    expect(warnings.find((w) => w.includes('bad'))).toContain('`grains` must be a function');
  });

  it('deep-merges when given a merge, and reads package dirs', async () => {
    const root = await unitDir({});
    const pkg = join(root, 'node_modules', 'ext-g');
    await mkdir(join(pkg, 'grains'), { recursive: true });
    await writeFile(
      join(pkg, 'package.json'),
      JSON.stringify({ name: 'ext-g', tsalt: { grains: './grains' } }),
    );
    await writeFile(join(pkg, 'grains', 'p.mjs'), unit('p', '() => ({ nested: { b: 2 } })'));
    const { grains } = await load([], {
      packages: ['ext-g'],
      resolveFrom: root,
      core: { nested: { a: 1 } },
      merge: (base, over) => {
        const nested = { ...(base.nested as object), ...(over.nested as object) };
        return { ...base, ...over, nested };
      },
    });
    expect(grains).toEqual({ nested: { a: 1, b: 2 } });
  });

  it('returns the core grains when there are no dirs', async () => {
    expect((await load(['/nonexistent/tsalt-grains'])).grains).toEqual({ os: 'Linux', id: 'm1' });
  });
});
