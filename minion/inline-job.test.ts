import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createModuleLoader } from '../kernel/loader/index.js';
import { createInlineRunner } from './inline-job.js';
import type { JobData } from './job-protocol.js';
import type { RunEnv } from './run-function.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-inline-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const log = pino({ level: 'silent' });

function moduleFile(dir: string, stem: string, body: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${stem}.mjs`), `export default ${body};\n`);
}

const builtin = join(root, 'builtin');
moduleFile(
  builtin,
  'probe',
  `{ name: 'probe', functions: {
    ping: { inline: true, run: () => true },
    args: { inline: true, varargs: true, varkw: true, run: (_c, _a, extra) => extra },
    boom: { inline: true, run: () => { throw new Error('inline failure'); } },
    slow: { run: () => 'job process' },
  } }`,
);
moduleFile(
  builtin,
  'shadowed',
  `{ name: 'shadowed', functions: { ping: { inline: true, run: () => true } } }`,
);
// a built-in that does not load under its own file name: a lookup would import every file to find it
moduleFile(
  builtin,
  'gated',
  `{ name: 'gated', virtual: () => ({ ok: false, reason: 'not here' }), functions: { x: { inline: true, run: () => 1 } } }`,
);
moduleFile(builtin, 'renamed', `{ name: 'other_name', functions: { x: { inline: true, run: () => 1 } } }`);
const custom = join(root, 'custom');
// top-level code that must never run in the minion's main process
mkdirSync(custom, { recursive: true });
writeFileSync(
  join(custom, 'evil.mjs'),
  "globalThis.__inlineEvilRan = true;\nexport default { name: 'evil', functions: {} };\n",
);
moduleFile(
  custom,
  'shadowed',
  `{ name: 'shadowed', functions: { ping: { inline: true, run: () => 'custom' } } }`,
);
moduleFile(custom, 'own', `{ name: 'own', functions: { ping: { inline: true, run: () => 'custom' } } }`);

function env(dirs: readonly string[] = [custom]): RunEnv {
  const loader = createModuleLoader({
    dirs,
    builtinDirs: [builtin],
    virtualContext: { opts: {}, grains: {} },
    log,
  });
  return { loader, opts: {}, grains: {}, id: 'm1', log };
}

// extension modules an operator may trust with inline_modules
moduleFile(
  custom,
  'gated_ext',
  `{ name: 'gated_ext', virtual: () => true, functions: { x: { inline: true, run: () => 1 } } }`,
);
moduleFile(custom, 'plain', `{ name: 'plain', functions: { x: { run: () => 1 } } }`);
const synced = join(root, 'synced');
moduleFile(synced, 'fresh', `{ name: 'fresh', functions: { ping: { inline: true, run: () => 'fresh' } } }`);
const pinned = join(root, 'pinned');
moduleFile(pinned, 'kept', `{ name: 'kept', functions: { ping: { inline: true, run: () => 'kept' } } }`);

const job = (fun: JobData['fun'], arg: unknown[] = []): JobData => ({
  jid: '20261122120000000001',
  fun,
  arg,
});

describe('inline jobs: built-in modules only, by default', () => {
  const inline = createInlineRunner({ builtinDirs: [builtin] });

  it('runs a built-in inline function here and shapes its outcome as a job process would', async () => {
    await expect(inline.run(env(), job('probe.ping'))).resolves.toEqual({
      return: true,
      retcode: 0,
      success: true,
    });
  });

  it('passes the publish data as __pub_ keywords, as in a job process', async () => {
    const out = await inline.run(env(), job('probe.args', ['a', { __kwarg__: true, k: 1 }]));
    expect(out?.return).toMatchObject({
      args: ['a'],
      kwargs: { k: 1, __pub_fun: 'probe.args', __pub_jid: '20261122120000000001' },
    });
  });

  it('contains a failing inline function in an error return', async () => {
    const out = await inline.run(env(), job('probe.boom'));
    expect(out).toMatchObject({ retcode: 1, success: false });
    expect(String(out?.return)).toContain('inline failure');
  });

  it('leaves functions not marked inline, and multi-function jobs, to a job process', async () => {
    await expect(inline.run(env(), job('probe.slow'))).resolves.toBeUndefined();
    await expect(inline.run(env(), job(['probe.ping', 'probe.ping'], [[], []]))).resolves.toBeUndefined();
    await expect(inline.run(env(), job('probe.missing'))).resolves.toBeUndefined();
    await expect(inline.run(env(), job('noperiod'))).resolves.toBeUndefined();
  });

  it('leaves a built-in that does not load under its own name to a job process, importing nothing else', async () => {
    await expect(inline.run(env(), job('gated.x'))).resolves.toBeUndefined();
    await expect(inline.run(env(), job('renamed.x'))).resolves.toBeUndefined();
    expect((globalThis as { __inlineEvilRan?: boolean }).__inlineEvilRan).toBeUndefined();
  });

  it('never runs code from extension folders here, even when it is marked inline', async () => {
    // a custom module that shadows a built-in one, and a custom module of its own
    await expect(inline.run(env(), job('shadowed.ping'))).resolves.toBeUndefined();
    await expect(inline.run(env(), job('own.ping'))).resolves.toBeUndefined();
  });
});

describe('inline jobs: extension modules the operator trusts (inline_modules)', () => {
  it('runs a trusted extension module here, and the same module untrusted in a job process', async () => {
    const trusting = createInlineRunner({ builtinDirs: [builtin], trusted: ['own'] });
    await expect(trusting.run(env(), job('own.ping'))).resolves.toEqual({
      return: 'custom',
      retcode: 0,
      success: true,
    });
    const strict = createInlineRunner({ builtinDirs: [builtin] });
    await expect(strict.run(env(), job('own.ping'))).resolves.toBeUndefined();
  });

  it('a trusted module that shadows a built-in one runs here as the extension module', async () => {
    const trusting = createInlineRunner({ builtinDirs: [builtin], trusted: ['shadowed'] });
    await expect(trusting.run(env(), job('shadowed.ping'))).resolves.toMatchObject({ return: 'custom' });
  });

  it('trust lifts the folder rule only: virtual(), other names and unmarked functions still go to a job process', async () => {
    const trusting = createInlineRunner({
      builtinDirs: [builtin],
      trusted: ['gated_ext', 'plain', 'renamed', 'own'],
    });
    await expect(trusting.run(env(), job('gated_ext.x'))).resolves.toBeUndefined();
    await expect(trusting.run(env(), job('plain.x'))).resolves.toBeUndefined();
    await expect(trusting.run(env(), job('own.missing'))).resolves.toBeUndefined();
    // an untrusted file is never imported to find out
    await expect(trusting.run(env(), job('evil.x'))).resolves.toBeUndefined();
    expect((globalThis as { __inlineEvilRan?: boolean }).__inlineEvilRan).toBeUndefined();
  });

  it('after a module sync, a trusted module whose folder changed runs in a job process (its first code stays here)', async () => {
    const trusting = createInlineRunner({ builtinDirs: [builtin], trusted: ['fresh', 'kept'] });
    const e = env([synced, pinned]);
    await expect(trusting.run(e, job('fresh.ping'))).resolves.toMatchObject({ return: 'fresh' });
    await expect(trusting.run(e, job('kept.ping'))).resolves.toMatchObject({ return: 'kept' });
    // a sync that changed nothing
    await trusting.modulesSynced();
    await expect(trusting.run(e, job('fresh.ping'))).resolves.toMatchObject({ return: 'fresh' });
    // a sync that rewrote the synced folder
    moduleFile(
      synced,
      'fresh',
      `{ name: 'fresh', functions: { ping: { inline: true, run: () => 'fresher' } } }`,
    );
    void trusting.modulesSynced();
    await expect(trusting.run(e, job('fresh.ping'))).resolves.toBeUndefined();
    await expect(trusting.run(e, job('kept.ping'))).resolves.toMatchObject({ return: 'kept' });
    await expect(trusting.run(env(), job('probe.ping'))).resolves.toMatchObject({ return: true });
  });
});
