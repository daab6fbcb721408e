import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  opendir,
  readFile,
  readlink,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveFunctionArgs } from '../kernel/index.js';
import { bindArgs } from '../kernel/util.js';
import { fakeCtx } from '../modules/_fake-ctx.js';
import type { StateContext, StateReturn } from '../plugins/states/index.js';
import file from './file.js';

// Expectations below are what Salt 3006.18 returned for the same calls (salt-call --local
// state.single ... on this machine), with the temp dir in place of Salt's.

let dir: string;
let roots: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-t-file-'));
  roots = join(dir, 'roots');
  await mkdir(roots);
  await writeFile(join(roots, 'a.txt'), 'hello\nworld\n');
  await writeFile(join(roots, 't.j2'), 'Hi {{ name }} {{ grains["id"] }}\n');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const PILLAR = { k: { sub: 'pillar text' } };

async function runRaw(fun: string, kwargs: Record<string, unknown>, test = false): Promise<StateReturn> {
  const opts = {
    cachedir: join(dir, 'cache'),
    file_client: 'local',
    file_roots: { base: [roots] },
    hash_type: 'sha256',
    user: 'root',
  };
  const base = fakeCtx({
    opts,
    grains: { id: 'py1' },
    call: async (f) => {
      if (f === 'pillar.items') return PILLAR;
      throw new Error(`no ${f} here`);
    },
  });
  const ctx = Object.assign(Object.create(base) as StateContext, {
    test,
    saltenv: 'base',
    low: { state: 'file', fun },
    pillar: PILLAR,
    running: {},
    state: async () => {
      throw new Error('no nested states here');
    },
  });
  const fn = file.functions[fun as keyof typeof file.functions] as Parameters<typeof resolveFunctionArgs>[0];
  const spec = await resolveFunctionArgs(fn);
  const { bound, extra } = bindArgs(spec, `file.${fun}`, [], kwargs);
  return (await spec.run(ctx as never, bound as never, extra)) as StateReturn;
}

async function run(fun: string, kwargs: Record<string, unknown>, test = false): Promise<StateReturn> {
  const ret = await runRaw(fun, kwargs, test);
  return JSON.parse(
    JSON.stringify({ result: ret.result, comment: ret.comment, changes: ret.changes }).replaceAll(dir, 'DIR'),
  );
}

const modeOf = async (p: string) => ((await stat(p)).mode & 0o7777).toString(8);
const NOTE = '\nNote: No changes made, actual changes may\nbe different due to other states.';

describe('file.managed', () => {
  it('creates from salt://, then is in the correct state; test=True predicts the diff without writing', async () => {
    const m1 = join(dir, 'm1');
    expect(await run('managed', { name: m1, source: 'salt://a.txt' })).toEqual({
      result: true,
      comment: 'File DIR/m1 updated',
      changes: { diff: 'New file', mode: '0644' },
    });
    expect(await readFile(m1, 'utf8')).toBe('hello\nworld\n');
    expect(await modeOf(m1)).toBe('644');
    expect(await run('managed', { name: m1, source: 'salt://a.txt' })).toEqual({
      result: true,
      comment: 'File DIR/m1 is in the correct state',
      changes: {},
    });
    const m2 = join(dir, 'm2');
    await writeFile(m2, 'hello\n');
    expect(await run('managed', { name: m2, source: 'salt://a.txt' }, true)).toEqual({
      result: null,
      comment: `The file DIR/m2 is set to be changed${NOTE}`,
      changes: { diff: '--- \n+++ \n@@ -1 +1,2 @@\n hello\n+world\n' },
    });
    expect(await readFile(m2, 'utf8')).toBe('hello\n');
    expect(await run('managed', { name: m2, source: 'salt://a.txt', mode: '600' })).toEqual({
      result: true,
      comment: 'File DIR/m2 updated',
      changes: { diff: '--- \n+++ \n@@ -1 +1,2 @@\n hello\n+world\n', mode: '0600' },
    });
    expect(await modeOf(m2)).toBe('600');
    expect(await run('managed', { name: join(dir, 'm3'), source: 'salt://a.txt' }, true)).toEqual({
      result: null,
      comment: `The file DIR/m3 is set to be changed${NOTE}`,
      changes: { newfile: 'DIR/m3' },
    });
  });

  it('manages contents, contents_pillar and a jinja template with context', async () => {
    const m4 = join(dir, 'm4');
    expect(await run('managed', { name: m4, contents: 'abc' })).toEqual({
      result: true,
      comment: 'File DIR/m4 updated',
      changes: { diff: 'New file' },
    });
    expect(await readFile(m4, 'utf8')).toBe('abc\n');
    expect(await run('managed', { name: m4, contents: 'abcd' })).toEqual({
      result: true,
      comment: 'File DIR/m4 updated',
      changes: { diff: '--- \n+++ \n@@ -1 +1 @@\n-abc\n+abcd\n' },
    });
    expect(await run('managed', { name: m4, contents: 'zzz', replace: false })).toEqual({
      result: true,
      comment: 'File DIR/m4 exists with proper permissions. No changes made.',
      changes: {},
    });
    await run('managed', { name: join(dir, 'm10'), contents_pillar: 'k:sub' });
    expect(await readFile(join(dir, 'm10'), 'utf8')).toBe('pillar text\n');
    expect(await run('managed', { name: join(dir, 'm10b'), contents_pillar: 'k:nope' })).toEqual({
      result: false,
      comment: 'Pillar k:nope does not exist',
      changes: {},
    });
    const m8 = join(dir, 'm8');
    await run('managed', { name: m8, source: 'salt://t.j2', template: 'jinja', context: { name: 'bob' } });
    expect(await readFile(m8, 'utf8')).toBe('Hi bob py1\n');
    expect(
      await run(
        'managed',
        { name: m8, source: 'salt://t.j2', template: 'jinja', context: { name: 'al' } },
        true,
      ),
    ).toEqual({
      result: null,
      comment: `The file DIR/m8 is set to be changed${NOTE}`,
      changes: { diff: '--- \n+++ \n@@ -1 +1 @@\n-Hi bob py1\n+Hi al py1\n' },
    });
  });

  it("refuses bad input with Salt's comments", async () => {
    expect(await run('managed', { name: 'rel/m', contents: 'abc' })).toEqual({
      result: false,
      comment: 'Specified file rel/m is not an absolute path',
      changes: {},
    });
    expect(await run('managed', { name: join(dir, 'm5'), source: 'salt://nope.txt' })).toEqual({
      result: false,
      comment: "Source file salt://nope.txt not found in saltenv 'base'",
      changes: {},
    });
    expect(await run('managed', { name: join(dir, 'm6'), source: ['salt://nope', 'salt://nope2'] })).toEqual({
      result: false,
      comment: 'Unable to manage file: none of the specified sources were found',
      changes: {},
    });
    expect(await run('managed', { name: join(dir, 'nod', 'm9'), contents: 'x' })).toEqual({
      result: false,
      comment: 'Parent directory not present',
      changes: {},
    });
    expect(await run('managed', { name: dir, contents: 'x' })).toEqual({
      result: false,
      comment: 'Specified target DIR is a directory',
      changes: {},
    });
    expect(await run('managed', { name: join(dir, 'm14'), source: 'salt://a.txt', contents: 'x' })).toEqual({
      result: false,
      comment:
        "'source' cannot be used in combination with 'contents', 'contents_pillar', or 'contents_grains'",
      changes: {},
    });
    expect(await run('managed', { name: join(dir, 'm11'), contents: 'z', create: false })).toEqual({
      result: true,
      comment: 'File DIR/m11 is not present and is not set for creation',
      changes: {},
    });
  });

  it('takes the first existing source of a list and makes parent folders with makedirs', async () => {
    const m6 = join(dir, 'm6');
    expect((await run('managed', { name: m6, source: ['salt://nope', 'salt://a.txt'] })).changes).toEqual({
      diff: 'New file',
      mode: '0644',
    });
    expect(await run('managed', { name: join(dir, 'nod', 'm9'), contents: 'x', makedirs: true })).toEqual({
      result: true,
      comment: 'File DIR/nod/m9 updated',
      changes: { diff: 'New file' },
    });
  });

  it("takes backup: False as Salt's (the minion's backup_mode then decides; hostsfile-formula)", async () => {
    const m10 = join(dir, 'm10');
    expect(await run('managed', { name: m10, contents: 'hello', backup: false })).toEqual({
      result: true,
      comment: 'File DIR/m10 updated',
      changes: { diff: 'New file' },
    });
    expect(await run('managed', { name: m10, contents: 'hello', backup: false })).toEqual({
      result: true,
      comment: 'File DIR/m10 is in the correct state',
      changes: {},
    });
  });
});

describe('file.directory, absent, symlink, touch, exists, missing', () => {
  it('directory: new, correct, mode change (test and real), clean', async () => {
    const d2 = join(dir, 'd2');
    expect(await run('directory', { name: d2 })).toEqual({
      result: true,
      comment: '',
      changes: { 'DIR/d2': { directory: 'new' } },
    });
    expect(await run('directory', { name: d2 })).toEqual({
      result: true,
      comment: 'The directory DIR/d2 is in the correct state',
      changes: {},
    });
    expect(await run('directory', { name: d2, mode: 700 }, true)).toEqual({
      result: null,
      comment: 'The following files will be changed:\nDIR/d2: mode - 0700\n',
      changes: { 'DIR/d2': { mode: '0700' } },
    });
    expect(await run('directory', { name: d2, mode: 700 })).toEqual({
      result: true,
      comment: 'Directory DIR/d2 updated',
      changes: { 'DIR/d2': { mode: '0700' }, mode: '0700' },
    });
    await mkdir(join(d2, 's'));
    await writeFile(join(d2, 'f1'), '');
    await writeFile(join(d2, 's', 'f2'), '');
    // Salt's return keeps the name as given, trailing slash included; changes and comments drop it
    const slash = await runRaw('directory', { name: `${d2}/`, mode: 700 }, true);
    expect([slash.name, slash.result, Object.keys(slash.changes)]).toEqual([`${d2}/`, true, []]);
    // a clean lists what it removes in the directory's own order, as os.walk (not sorted)
    const many = join(dir, 'many');
    await mkdir(many);
    for (let i = 0; i < 24; i++) await writeFile(join(many, `f${(i * 7) % 24}`), '');
    const listed: string[] = [];
    for await (const e of await opendir(many)) listed.push(join(many, e.name));
    const predicted = await runRaw('directory', { name: many, clean: true }, true);
    expect(Object.keys(predicted.changes)).toEqual(listed);
    // exclude_pat may be a list (Salt's check_include_exclude): any pattern keeps a file
    const kept = await runRaw('directory', { name: many, clean: true, exclude_pat: ['f1', 'E@^f2$'] }, true);
    expect(listed.filter((p) => !(p in kept.changes)).map((p) => p.slice(many.length + 1))).toEqual(
      listed.map((p) => p.slice(many.length + 1)).filter((n) => n === 'f1' || n === 'f2'),
    );
    const cleaned = await run('directory', { name: d2, clean: true });
    expect(cleaned.comment).toBe('Files cleaned from directory DIR/d2');
    expect((cleaned.changes.removed as string[]).sort()).toEqual(['DIR/d2/f1', 'DIR/d2/s']);
    expect(await run('directory', { name: d2, recurse: ['bogus'] })).toEqual({
      result: false,
      comment:
        'Types for "recurse" limited to "user", "group", "mode", "ignore_files", "ignore_dirs", "silent".',
      changes: {},
    });
  });

  it('absent removes files and folders, refuses / and relative paths', async () => {
    const f = join(dir, 'f');
    await writeFile(f, 'x');
    expect(await run('absent', { name: f }, true)).toEqual({
      result: null,
      comment: 'File DIR/f is set for removal',
      changes: { removed: 'DIR/f' },
    });
    expect(await run('absent', { name: f })).toEqual({
      result: true,
      comment: 'Removed file DIR/f',
      changes: { removed: 'DIR/f' },
    });
    expect(await run('absent', { name: f })).toEqual({
      result: true,
      comment: 'File DIR/f is not present',
      changes: {},
    });
    await mkdir(join(dir, 'd1', 'x'), { recursive: true });
    expect((await run('absent', { name: join(dir, 'd1') })).comment).toBe('Removed directory DIR/d1');
    expect(await run('absent', { name: '/' })).toEqual({
      result: false,
      comment: 'Refusing to make "/" absent',
      changes: {},
    });
    expect((await run('absent', { name: 'rel' })).comment).toBe('Specified file rel is not an absolute path');
  });

  it('symlink, touch, exists, missing', async () => {
    const target = join(dir, 'target');
    await writeFile(target, 'x');
    const l1 = join(dir, 'l1');
    expect(await run('symlink', { name: l1, target }, true)).toEqual({
      result: null,
      comment: 'Symlink DIR/l1 to DIR/target is set for creation',
      changes: { new: 'DIR/l1' },
    });
    expect(await run('symlink', { name: l1, target })).toEqual({
      result: true,
      comment: 'Created new symlink DIR/l1 -> DIR/target',
      changes: { new: 'DIR/l1' },
    });
    expect(await readlink(l1)).toBe(target);
    expect(await run('symlink', { name: l1, target })).toEqual({
      result: true,
      comment: 'Symlink DIR/l1 is present and owned by root:root',
      changes: {},
    });
    expect(await run('symlink', { name: target, target: join(dir, 'x') })).toEqual({
      result: false,
      comment: 'File exists where the symlink DIR/target should be',
      changes: {},
    });
    // test=True with the link's folder missing: Salt 3006 predicts the creation and says why it would fail
    expect(await run('symlink', { name: join(dir, 'nodir', 'l2'), target }, true)).toEqual({
      result: null,
      comment:
        'Symlink DIR/nodir/l2 to DIR/target is set for creation\nDirectory DIR/nodir for symlink is not present',
      changes: { new: 'DIR/nodir/l2' },
    });
    const t1 = join(dir, 't1');
    expect(await run('touch', { name: t1 })).toEqual({
      result: true,
      comment: 'Created empty file DIR/t1',
      changes: { new: 'DIR/t1' },
    });
    expect(await run('touch', { name: t1 })).toEqual({
      result: true,
      comment: 'Updated times on file DIR/t1',
      changes: { touched: 'DIR/t1' },
    });
    expect(await run('exists', { name: t1 })).toEqual({
      result: true,
      comment: 'Path DIR/t1 exists',
      changes: {},
    });
    expect(await run('missing', { name: t1 })).toEqual({
      result: false,
      comment: 'Specified path DIR/t1 exists',
      changes: {},
    });
    expect(await run('missing', { name: join(dir, 'nope') })).toEqual({
      result: true,
      comment: 'Path DIR/nope is missing',
      changes: {},
    });
    expect((await lstat(l1)).isSymbolicLink()).toBe(true);
  });
});

describe('text edits', () => {
  beforeEach(async () => {
    await writeFile(join(dir, 'e1'), 'a\nb\nc\n');
  });

  it("append (Salt's newline-joined diff) and prepend", async () => {
    const e1 = join(dir, 'e1');
    expect(await run('append', { name: e1, text: 'd' })).toEqual({
      result: true,
      comment: 'Appended 1 lines',
      changes: { diff: '--- \n\n+++ \n\n@@ -1,3 +1,4 @@\n\n a\n b\n c\n+d' },
    });
    expect(await run('append', { name: e1, text: 'd' }, true)).toEqual({
      result: true,
      comment: 'File DIR/e1 is in correct state',
      changes: {},
    });
    expect(await run('prepend', { name: e1, text: 'z' })).toEqual({
      result: true,
      comment: 'Prepended 1 lines',
      changes: { diff: '--- \n+++ \n@@ -1,3 +1,4 @@\n+z\n a\n b\n c\n' },
    });
    expect(await readFile(e1, 'utf8')).toBe('z\na\nb\nc\nd\n');
  });

  it('replace, comment, uncomment, blockreplace', async () => {
    const e1 = join(dir, 'e1');
    expect(await run('replace', { name: e1, pattern: 'b', repl: 'B' })).toEqual({
      result: true,
      comment: 'Changes were made',
      changes: { diff: '--- \n+++ \n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n' },
    });
    expect(await run('replace', { name: e1, pattern: 'b', repl: 'B' })).toEqual({
      result: true,
      comment: 'No changes needed to be made',
      changes: {},
    });
    expect(await run('comment', { name: e1, regex: '^c' })).toEqual({
      result: true,
      comment: 'Commented lines successfully',
      changes: { diff: '--- \n+++ \n@@ -1,3 +1,3 @@\n a\n B\n-c\n+#c\n' },
    });
    expect((await run('comment', { name: e1, regex: '^c' })).comment).toBe('Pattern already commented');
    expect((await run('uncomment', { name: e1, regex: 'c' })).comment).toBe('Uncommented lines successfully');
    expect(await run('blockreplace', { name: e1, content: 'hello', append_if_not_found: true })).toEqual({
      result: true,
      comment: 'Changes were made',
      changes: {
        diff: '--- \n+++ \n@@ -1,3 +1,6 @@\n a\n B\n c\n+#-- start managed zone --\n+hello\n+#-- end managed zone --\n',
      },
    });
    expect(
      await run('blockreplace', { name: e1, content: 'x', marker_start: 'XX', marker_end: 'YY' }),
    ).toEqual({
      result: false,
      comment:
        'Encountered error managing block: Cannot edit marked block. Markers were not found in file.. See the log for details.',
      changes: {},
    });
  });
});

describe('copy, rename, serialize', () => {
  it('copy and rename', async () => {
    const src = join(dir, 'src');
    await writeFile(src, 'x\n');
    await chmod(src, 0o640);
    const c1 = join(dir, 'c1');
    expect(await run('copy', { name: c1, source: src })).toEqual({
      result: true,
      comment: 'Copied "DIR/src" to "DIR/c1"',
      changes: { 'DIR/c1': 'DIR/src' },
    });
    expect(await modeOf(c1)).toBe('640');
    expect((await run('copy', { name: c1, source: src })).comment).toBe(
      'The target file "DIR/c1" exists and will not be overwritten',
    );
    expect(await run('rename', { name: join(dir, 'r1'), source: c1 })).toEqual({
      result: true,
      comment: 'Moved "DIR/c1" to "DIR/r1"',
      changes: { 'DIR/r1': 'DIR/c1' },
    });
    expect((await run('rename', { name: join(dir, 'r1'), source: c1 })).comment).toBe(
      'Source file "DIR/c1" has already been moved out of place',
    );
    // the return's key order is Salt's, which differs between file state functions
    const keys = async (fun: string, kw: Record<string, unknown>) => Object.keys(await runRaw(fun, kw, true));
    expect(await keys('copy', { name: join(dir, 'c2'), source: src })).toEqual([
      'name',
      'changes',
      'comment',
      'result',
    ]);
    expect(await keys('rename', { name: join(dir, 'r2'), source: src })).toEqual([
      'name',
      'changes',
      'comment',
      'result',
    ]);
    expect(await keys('serialize', { name: join(dir, 's0.json'), dataset: {}, formatter: 'json' })).toEqual([
      'changes',
      'comment',
      'name',
      'result',
    ]);
    expect(await keys('absent', { name: join(dir, 'nope') })).toEqual([
      'name',
      'changes',
      'result',
      'comment',
    ]);
  });

  it('serialize json and yaml as Salt writes them, and merges', async () => {
    const j = join(dir, 's1.json');
    await run('serialize', { name: j, dataset: { a: 1, b: [1, 2] }, formatter: 'json', backup: false });
    expect(await readFile(j, 'utf8')).toBe('{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}\n');
    expect(
      await run('serialize', {
        name: j,
        dataset: { c: 3, b: [3] },
        formatter: 'json',
        merge_if_exists: true,
      }),
    ).toEqual({
      result: true,
      comment: 'File DIR/s1.json updated',
      changes: { diff: { b: { new: [3], old: [1, 2] }, c: { new: 3, old: '<_null_>' } } },
    });
    const y = join(dir, 's2.yaml');
    await run('serialize', {
      name: y,
      dataset: { z: 'a b', y: true, x: null, w: 1.5, v: 'yes', u: [{ q: 1 }] },
    });
    expect(await readFile(y, 'utf8')).toBe("u:\n- q: 1\nv: 'yes'\nw: 1.5\nx: null\ny: true\nz: a b\n");
  });
});

describe('file.managed from http(s) with source_hash', () => {
  it("checks the download against source_hash with Salt's comments, and leaves a matching file alone", async () => {
    const server = createServer((req, res) => {
      if (req.url === '/a.txt') res.end('hello\nworld\n');
      else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a.txt`;
    const good = '4a1e67f2fe1d1cc7b31d0ca2ec441da4778203a036a77da10344c85e24ff0f92';
    const bad = '0'.repeat(64);
    try {
      const h1 = join(dir, 'h1');
      expect(await run('managed', { name: h1, source: url })).toEqual({
        result: false,
        comment: `Unable to verify upstream hash of source file ${url}, please set source_hash or set skip_verify to True`,
        changes: {},
      });
      expect(await run('managed', { name: h1, source: url, source_hash: `sha256=${bad}` })).toEqual({
        result: false,
        comment: `Specified sha256 checksum for DIR/h1 (${bad}) does not match actual checksum (${good})`,
        changes: {},
      });
      expect(await run('managed', { name: h1, source: url, source_hash: good })).toEqual({
        result: true,
        comment: 'File DIR/h1 updated',
        changes: { diff: 'New file', mode: '0644' },
      });
      expect(await run('managed', { name: h1, source: url, source_hash: good })).toEqual({
        result: true,
        comment: 'File DIR/h1 exists with proper permissions. No changes made.',
        changes: {},
      });
      expect((await run('managed', { name: join(dir, 'h3'), source: url, skip_verify: true })).comment).toBe(
        'File DIR/h3 updated',
      );
    } finally {
      server.close();
    }
  });
});
