import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveFunctionArgs } from '../kernel/index.js';
import { bindArgs, float64 } from '../kernel/util.js';
import cmd from '../modules/cmd.js';
import cp from '../modules/cp.js';
import fileMod from '../modules/file.js';
import type { StateContext, StateReturn } from '../plugins/states/index.js';
import { moduleCtx } from './_test-ctx.js';
import file from './file.js';

// Expectations are what Salt 3006.18 returned for the same SLS (salt-call --local state.apply,
// /tmp/fs-cmp/cmp.sh), with the temp dir in place of Salt's.

let dir: string;
let roots: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-t-filemore-'));
  roots = join(dir, 'roots');
  await mkdir(join(roots, 'rdir/sub/deep'), { recursive: true });
  await writeFile(join(roots, 'rdir/a.txt'), 'one\n');
  await writeFile(join(roots, 'rdir/b.conf'), 'two\n');
  await writeFile(join(roots, 'rdir/sub/t.txt'), 'hi {{ pillar.who }}\n');
  await writeFile(join(roots, 'rdir/sub/deep/d.txt'), 'deep\n');
  await writeFile(
    join(roots, 'acc.j2'),
    'animals:{% for a in accumulator["animals"] %} {{ a }}{% endfor %}\n',
  );
  await writeFile(join(roots, 'p.j2'), 'who={{ pillar.who }}\n');
  await writeFile(join(roots, 'p.diff'), '--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Harness = (
  fun: string,
  kwargs: Record<string, unknown>,
  opts?: { test?: boolean; id?: string },
) => Promise<StateReturn>;

/** Runs file states as the state system does: one job (shared scratch space), ctx.state wired, the run's pillar. */
function harness(pillar: Record<string, unknown> = {}): Harness {
  const base = moduleCtx([fileMod, cp, cmd], {
    opts: {
      cachedir: join(dir, 'cache'),
      file_client: 'local',
      file_roots: { base: [roots] },
      hash_type: 'sha256',
      user: 'root',
    },
    grains: { id: 'py1', kernel: 'Linux' },
  });
  const run: Harness = async (fun, kwargs, opts = {}) => {
    const found = file.functions[fun as keyof typeof file.functions];
    if (!found) throw new Error(`file.${fun} is not defined`);
    const spec = await resolveFunctionArgs(found as never);
    const shape = (spec.args as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
    const given = found.varkw
      ? kwargs
      : Object.fromEntries(Object.entries(kwargs).filter(([k]) => k in shape));
    const { bound, extra } = bindArgs(spec, `file.${fun}`, [], given);
    const ctx = Object.create(base) as StateContext;
    Object.defineProperties(ctx, {
      test: { value: opts.test ?? false },
      saltenv: { value: 'base' },
      low: { value: { state: 'file', fun, __id__: opts.id ?? kwargs.name, __sls__: 'more', ...kwargs } },
      pillar: { value: pillar },
      running: { value: {} },
      state: {
        value: (other: string, kw: Record<string, unknown>) => run(other.slice(5), kw, { test: opts.test }),
      },
      // the job's state functions, with the test flag the caller gives (file.patch fetches with it off)
      states: {
        value: {
          call: (other: string, kw: Record<string, unknown>, o: { test: boolean }) =>
            run(other.slice(5), kw, { test: o.test }),
        },
      },
    });
    const ret = (await found.run(ctx, bound as never, extra)) as StateReturn;
    return JSON.parse(JSON.stringify(ret).replaceAll(dir, 'DIR'));
  };
  return run;
}

const NOTE = '\nNote: No changes made, actual changes may\nbe different due to other states.';

describe('file.line and file.keyvalue', () => {
  it('edits a line, predicts under test, and says when nothing changes', async () => {
    const run = harness();
    const f = join(dir, 'f');
    await writeFile(f, 'a\n  b\nc = 1\n');
    expect(await run('line', { name: f, content: 'x', after: 'b', mode: 'ensure' }, { test: true })).toEqual({
      name: 'DIR/f',
      result: null,
      comment: 'Changes would be made',
      changes: { diff: '--- \n+++ \n@@ -1,3 +1,4 @@\n a\n   b\n+  x\n c = 1\n' },
    });
    expect(await run('line', { name: f, content: 'c = 2', match: '^c', mode: 'replace' })).toMatchObject({
      result: true,
      comment: 'Changes were made',
    });
    expect(await readFile(f, 'utf8')).toBe('a\n  b\nc = 2\n');
    expect(await run('line', { name: f, content: 'q', match: 'zzz', mode: 'replace' })).toMatchObject({
      result: true,
      comment: 'No changes needed to be made',
      changes: {},
    });
    expect(await run('line', { name: f, mode: 'insert' })).toMatchObject({
      result: false,
      comment: "Content can only be empty if mode is ['delete']",
    });
    expect(await run('line', { name: join(dir, 'missing'), content: 'x', mode: 'ensure' })).toMatchObject({
      result: false,
      comment: 'DIR/missing: file not found',
    });
    const made = join(dir, 'made');
    expect(
      await run('line', {
        name: made,
        content: 'hello',
        location: 'end',
        mode: 'insert',
        create: true,
        file_mode: '0600',
      }),
    ).toMatchObject({ result: true, changes: { diff: '--- \n+++ \n@@ -0,0 +1 @@\n+hello' } });
    expect((await stat(made)).mode & 0o777).toBe(0o600);
  });

  it('sets keys, uncomments, appends and reports in Salt form', async () => {
    const run = harness();
    const kv = join(dir, 'kv');
    await writeFile(kv, 'a=1\nb = 2\n#d=off\ne=0\ne=2\n');
    expect(await run('keyvalue', { name: kv, key: 'a', value: 5 }, { test: true })).toEqual({
      name: 'DIR/kv',
      result: null,
      comment:
        'File DIR/kv is set to be changed (1 lines)\nPredicted diff:\n\r\t\t- a=1\n\r\t\t+ a=5 (from int type)\n',
      changes: { diff: '- a=1\n+ a=5 (from int type)\n' },
    });
    expect(
      await run('keyvalue', {
        name: kv,
        key_values: { b: 'two', nokey: 'x' },
        separator: ' = ',
        append_if_not_found: true,
      }),
    ).toEqual({
      name: 'DIR/kv',
      result: true,
      comment: 'Changed 2 lines',
      changes: { diff: '- b = 2\n+ b = two\n- <EOF>\n+ nokey = x\n+ <EOF>\n' },
    });
    expect(await run('keyvalue', { name: kv, key: 'd', value: 'on', uncomment: '#' })).toMatchObject({
      comment: 'Changed 1 lines',
    });
    expect(await run('keyvalue', { name: kv, key: 'e', value: 1, count: -1 })).toMatchObject({
      comment: 'Changed 2 lines',
    });
    expect(await readFile(kv, 'utf8')).toBe('a=1\nb = two\nd=on\ne=1\ne=1\nnokey = x\n');
    expect(await run('keyvalue', { name: kv, key: 'e', value: 1, count: -1 })).toEqual({
      name: 'DIR/kv',
      result: true,
      comment: '',
      changes: {},
    });
    expect(await run('keyvalue', { name: join(dir, 'nofile'), key: 'a', value: 'b' })).toMatchObject({
      result: false,
      comment: 'unable to open DIR/nofile',
    });
    expect(await run('keyvalue', { name: kv, key_values: [1, 2] })).toMatchObject({
      result: false,
      comment: 'file.keyvalue key and value not supplied and key_values is not a dictionary',
    });
  });
});

describe('file.recurse', () => {
  it('copies a salt:// folder with modes, templates, patterns and depth', async () => {
    const run = harness({ who: 'pillar-bob' });
    const r1 = join(dir, 'r1');
    const first = await run('recurse', {
      name: r1,
      source: 'salt://rdir',
      file_mode: '0600',
      dir_mode: '0750',
    });
    expect(first.result).toBe(true);
    expect(first.comment).toBe('Recursively updated DIR/r1');
    expect(Object.keys(first.changes).sort()).toEqual([
      'DIR/r1/a.txt',
      'DIR/r1/b.conf',
      'DIR/r1/sub',
      'DIR/r1/sub/deep',
      'DIR/r1/sub/deep/d.txt',
      'DIR/r1/sub/t.txt',
    ]);
    expect(first.changes['DIR/r1/a.txt']).toEqual({ diff: 'New file' });
    expect((await stat(join(r1, 'a.txt'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(r1, 'sub'))).mode & 0o777).toBe(0o750);
    expect(await readFile(join(r1, 'sub/t.txt'), 'utf8')).toBe('hi {{ pillar.who }}\n');
    // hostsfile-formula's `backup: false`: Salt takes any falsy backup as the config's backup_mode
    expect(
      await run('recurse', {
        name: r1,
        source: 'salt://rdir',
        file_mode: '0600',
        dir_mode: '0750',
        backup: false,
      }),
    ).toEqual({
      name: 'DIR/r1',
      result: true,
      comment: 'The directory DIR/r1 is in the correct state',
      changes: {},
    });
    const r2 = join(dir, 'r2');
    await run('recurse', {
      name: r2,
      source: 'salt://rdir',
      template: 'jinja',
      include_pat: '*.txt',
      exclude_pat: 'E@deep',
    });
    expect(await readFile(join(r2, 'sub/t.txt'), 'utf8')).toBe('hi pillar-bob\n');
    expect(await lstat(join(r2, 'b.conf')).catch(() => null)).toBe(null);
    expect(await lstat(join(r2, 'sub/deep')).catch(() => null)).toBe(null);
  });

  it('cleans what the source does not hold, predicts under test, and refuses bad sources', async () => {
    const run = harness();
    const r3 = join(dir, 'r3');
    await mkdir(join(r3, 'old'), { recursive: true });
    await writeFile(join(r3, 'junk'), 'x');
    await writeFile(join(r3, 'old/f'), 'y');
    const predicted = await run(
      'recurse',
      { name: r3, source: 'salt://rdir', clean: true, maxdepth: 0 },
      { test: true },
    );
    expect(predicted.result).toBe(null);
    expect(predicted.comment).toContain('#### removed ####\nDIR/r3/junk\nDIR/r3/old\nDIR/r3/old/f');
    expect(predicted.comment).toContain(
      `#### DIR/r3/a.txt ####\nThe file DIR/r3/a.txt is set to be changed${NOTE}`,
    );
    expect(predicted.changes['DIR/r3/a.txt']).toEqual({ newfile: 'DIR/r3/a.txt' });
    const done = await run('recurse', { name: r3, source: 'salt://rdir', clean: true, maxdepth: 0 });
    expect(done.changes.removed).toEqual(['DIR/r3/junk', 'DIR/r3/old']);
    expect(await lstat(join(r3, 'old')).catch(() => null)).toBe(null);
    expect(await lstat(join(r3, 'sub')).catch(() => null)).toBe(null);
    expect(await run('recurse', { name: join(dir, 'r5'), source: 'salt://nodir' })).toMatchObject({
      result: false,
      comment: 'Recurse failed: none of the specified sources were found',
    });
    expect(await run('recurse', { name: join(dir, 'r6'), source: 'salt://rdir/a.txt' })).toMatchObject({
      result: false,
      comment: "The directory 'rdir/a.txt' does not exist on the salt fileserver in saltenv 'base'",
    });
    expect(await run('recurse', { name: join(dir, 'r7'), source: 'salt://rdir', mode: 644 })).toMatchObject({
      result: false,
      comment: "'mode' is not allowed in 'file.recurse'. Please use 'file_mode' and 'dir_mode'.",
    });
  });
});

describe('file.accumulated and the templates that read it', () => {
  it('feeds file.managed templates and file.blockreplace in one run', async () => {
    const run = harness();
    const m = join(dir, 'm');
    const b = join(dir, 'b');
    await writeFile(b, 'head\n');
    const req = { require_in: [{ file: 'managed_m' }] };
    expect(await run('accumulated', { name: 'animals', filename: m, text: 'fox', ...req })).toEqual({
      name: 'animals',
      result: true,
      comment: 'Accumulator animals for file DIR/m was charged by text',
      changes: {},
    });
    await run('accumulated', { name: 'animals', filename: m, text: ['dog', 'fox', 'cat'], ...req });
    expect(await run('managed', { name: m, source: 'salt://acc.j2', template: 'jinja' })).toMatchObject({
      result: true,
      comment: 'File DIR/m updated',
    });
    expect(await readFile(m, 'utf8')).toBe('animals: fox dog cat\n');
    await run('accumulated', {
      name: 'b1',
      filename: b,
      text: 'line one',
      require_in: [{ file: 'block_b' }],
    });
    await run('accumulated', {
      name: 'other',
      filename: b,
      text: 'line two',
      watch_in: [{ file: 'block_b' }],
    });
    await run('blockreplace', { name: b, content: 'base', append_if_not_found: true }, { id: 'block_b' });
    expect(await readFile(b, 'utf8')).toBe(
      'head\n#-- start managed zone --\nbase\nline one\nline two\n#-- end managed zone --\n',
    );
    expect(
      await run('accumulated', { name: 'orphan', filename: m, text: 'x' }, { id: 'orphan' }),
    ).toMatchObject({
      result: false,
      comment: 'Orphaned accumulator orphan in more:orphan',
    });
  });
});

describe('file.tidied and file.patch', () => {
  it('removes matching files by name, size and age', async () => {
    const run = harness();
    const t1 = join(dir, 't1');
    await mkdir(join(t1, 'sub'), { recursive: true });
    for (const f of ['a.log', 'b.txt', 'sub/c.log']) await writeFile(join(t1, f), '');
    expect(await run('tidied', { name: t1, matches: ['.*\\.log'] }, { test: true })).toEqual({
      name: 'DIR/t1',
      result: null,
      comment: 'DIR/t1 is set for tidy',
      changes: { removed: ['DIR/t1/sub/c.log', 'DIR/t1/a.log'] },
    });
    expect(await run('tidied', { name: t1, matches: ['.*\\.log'] })).toMatchObject({
      comment: 'Removed 2 files or directories from directory DIR/t1',
    });
    expect(await run('tidied', { name: t1, matches: ['.*\\.log'] })).toMatchObject({
      comment: 'Nothing to remove from directory DIR/t1',
    });
    const t3 = join(dir, 't3');
    await mkdir(t3);
    await writeFile(join(t3, 'big'), Buffer.alloc(2000));
    await writeFile(join(t3, 'small'), '');
    const old = new Date(Date.now() - 5 * 86_400_000);
    await utimes(join(t3, 'small'), old, old);
    // age 0 days passes for every file: AND removes what is 1 KiB or more
    expect(await run('tidied', { name: t3, size: '1K', age_size_logical_operator: 'AND' })).toMatchObject({
      changes: { removed: ['DIR/t3/big'] },
    });
    expect(await run('tidied', { name: t3, age: 3, age_size_only: 'age' }, { test: true })).toMatchObject({
      changes: { removed: ['DIR/t3/small'] },
    });
    expect(await run('tidied', { name: join(dir, 'none') })).toMatchObject({
      result: false,
      comment: 'DIR/none does not exist or is not a directory.',
    });
  });

  it('applies a patch once, then knows it was applied', async () => {
    const run = harness();
    const f = join(dir, 'f');
    await writeFile(f, 'a\nb\nc\n');
    const test = await run('patch', { name: f, source: 'salt://p.diff' }, { test: true });
    expect(test).toMatchObject({
      result: null,
      comment: 'The patch would be applied',
      changes: { retcode: 0 },
    });
    expect(await readFile(f, 'utf8')).toBe('a\nb\nc\n');
    expect(await run('patch', { name: f, source: 'salt://p.diff' })).toMatchObject({
      result: true,
      comment: 'Patch successfully applied',
      changes: { retcode: 0, stdout: 'patching file DIR/f', stderr: '' },
    });
    expect(await readFile(f, 'utf8')).toBe('a\nB\nc\n');
    expect(await run('patch', { name: f, source: 'salt://p.diff' })).toMatchObject({
      result: true,
      comment: 'Patch was already applied',
    });
    expect(await run('patch', { name: f, source: 'salt://p.diff', options: '-N' })).toMatchObject({
      result: false,
      comment: 'The following CLI options are not allowed: -N',
    });
  });

  // recorded with salt-call --local state.apply on Salt 3006.18: the patch is rendered by
  // file.managed before it is applied, a float in the context keeps its .0
  it('renders a templated patch with context or defaults, and checks its source_hash', async () => {
    const run = harness({ who: 'pillar-who' });
    const f = join(dir, 'f');
    await writeFile(f, 'one\nversion = 1\nthree\n');
    const diff =
      '--- f\n+++ f\n@@ -1,3 +1,3 @@\n one\n-version = 1\n+version = {{ v }} {{ pillar.who }}\n three\n';
    await writeFile(join(roots, 'v.diff.j2'), diff);
    const src = { name: f, source: 'salt://v.diff.j2', template: 'jinja' };
    expect(await run('patch', { ...src, context: { v: float64(2) } }, { test: true })).toMatchObject({
      result: null,
      comment: 'The patch would be applied',
    });
    expect(await readFile(f, 'utf8')).toBe('one\nversion = 1\nthree\n');
    expect(await run('patch', { ...src, context: { v: float64(2) } })).toMatchObject({
      result: true,
      comment: 'Patch successfully applied',
    });
    expect(await readFile(f, 'utf8')).toBe('one\nversion = 2.0 pillar-who\nthree\n');
    await writeFile(f, 'one\nversion = 1\nthree\n');
    const sha = createHash('sha256').update(diff).digest('hex');
    expect(await run('patch', { ...src, defaults: { v: 3 }, source_hash: `sha256=${sha}` })).toMatchObject({
      result: true,
    });
    expect(await readFile(f, 'utf8')).toBe('one\nversion = 3 pillar-who\nthree\n');
    // a source that is not there: file.managed's own failure, named after the temporary file
    const missing = await run('patch', { name: f, source: 'salt://nope.diff', template: 'jinja' });
    expect(missing).toMatchObject({
      result: false,
      comment: "Source file salt://nope.diff not found in saltenv 'base'",
    });
  });
});

describe('file.hardlink', () => {
  it('links, says when it already links, and refuses a plain file unless forced', async () => {
    const run = harness();
    const t = join(dir, 't');
    await writeFile(t, 't\n');
    await writeFile(join(dir, 'plain'), 'p\n');
    const h = join(dir, 'h');
    expect(await run('hardlink', { name: h, target: t }, { test: true })).toEqual({
      name: 'DIR/h',
      result: null,
      comment: 'Hard link DIR/h to DIR/t is set for creation',
      changes: { new: 'DIR/h' },
    });
    expect(await run('hardlink', { name: h, target: t })).toEqual({
      name: 'DIR/h',
      result: true,
      comment: 'Created new hard link DIR/h -> DIR/t',
      changes: { new: 'DIR/h' },
    });
    expect((await stat(h)).ino).toBe((await stat(t)).ino);
    expect(await run('hardlink', { name: h, target: t })).toMatchObject({
      result: true,
      comment: 'Target of hard link DIR/h is already pointing to DIR/t',
    });
    expect(await run('hardlink', { name: join(dir, 'plain'), target: t })).toMatchObject({
      result: false,
      comment: 'File exists where the hard link DIR/plain should be',
    });
    expect(await run('hardlink', { name: join(dir, 'plain'), target: t, force: true })).toMatchObject({
      result: true,
      changes: { forced: 'File for hard link was forcibly replaced', new: 'DIR/plain' },
    });
    expect(await run('hardlink', { name: 'rel', target: 'rel2' })).toMatchObject({
      result: false,
      comment: 'Specified file rel is not an absolute path. Specified target rel2 is not an absolute path.',
    });
  });

  it("breaks where Salt's edits replace the target (line, blockreplace, comment, replace appending), not where they write in place", async () => {
    // Salt 3006.18, the same SLS run twice: the second run's hardlink says "File exists" after an
    // edit through atomic_open or a moved-away copy, and "already pointing" after an in-place one.
    const run = harness();
    const edits: [string, Record<string, unknown>, boolean][] = [
      ['line', { content: 'added', mode: 'ensure', after: 'same' }, true],
      ['blockreplace', { content: 'blk', append_if_not_found: true }, true],
      ['comment', { regex: '^same' }, true],
      ['replace', { pattern: 'zzz', repl: 'zzz', append_if_not_found: true }, true],
      ['replace', { pattern: 'same', repl: 'diff' }, false],
      ['append', { text: 'more' }, false],
      ['prepend', { text: 'first' }, false],
    ];
    for (const [i, [fun, args, breaks]] of edits.entries()) {
      const t = join(dir, `t${i}`);
      const h = join(dir, `h${i}`);
      await writeFile(t, 'same\n');
      expect(await run('hardlink', { name: h, target: t })).toMatchObject({ result: true });
      expect(await run(fun, { name: t, ...args })).toMatchObject({ result: true });
      expect(Object.keys((await run(fun, { name: t, ...args })).changes)).toEqual([]);
      expect((await stat(t)).ino !== (await stat(h)).ino, fun).toBe(breaks);
      expect(await run('hardlink', { name: h, target: t }, { test: true })).toEqual({
        name: `DIR/h${i}`,
        result: !breaks,
        comment: breaks
          ? `File or directory exists where the hard link DIR/h${i} should be. Did you mean to use force?`
          : `The hard link DIR/h${i} is presently targetting DIR/t${i}`,
        changes: {},
      });
      expect(await run('hardlink', { name: h, target: t })).toEqual({
        name: `DIR/h${i}`,
        result: !breaks,
        comment: breaks
          ? `File exists where the hard link DIR/h${i} should be`
          : `Target of hard link DIR/h${i} is already pointing to DIR/t${i}`,
        changes: {},
      });
    }
  });
});

describe('the run pillar reaches file.managed templates', () => {
  it('renders with the pillar the state run sees (a pillar= override), not the minion pillar', async () => {
    const run = harness({ who: 'override' });
    const p = join(dir, 'p');
    await run('managed', { name: p, source: 'salt://p.j2', template: 'jinja' });
    expect(await readFile(p, 'utf8')).toBe('who=override\n');
    await run('managed', { name: join(dir, 'p2'), contents: 'c={{ pillar.who }}', template: 'jinja' });
    expect(await readFile(join(dir, 'p2'), 'utf8')).toBe('c=override\n');
  });
});
