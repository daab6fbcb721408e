import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createModuleLoader } from '../kernel/loader/index.js';
import { runInline } from './inline-job.js';
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

function env(): RunEnv {
  const loader = createModuleLoader({
    dirs: [custom],
    builtinDirs: [builtin],
    virtualContext: { opts: {}, grains: {} },
    log,
  });
  return { loader, opts: {}, grains: {}, id: 'm1', log };
}

const job = (fun: JobData['fun'], arg: unknown[] = []): JobData => ({
  jid: '20261122120000000001',
  fun,
  arg,
});

describe('runInline', () => {
  it('runs a built-in inline function here and shapes its outcome as a job process would', async () => {
    await expect(runInline(env(), builtin, job('probe.ping'))).resolves.toEqual({
      return: true,
      retcode: 0,
      success: true,
    });
  });

  it('passes the publish data as __pub_ keywords, as in a job process', async () => {
    const out = await runInline(env(), builtin, job('probe.args', ['a', { __kwarg__: true, k: 1 }]));
    expect(out?.return).toMatchObject({
      args: ['a'],
      kwargs: { k: 1, __pub_fun: 'probe.args', __pub_jid: '20261122120000000001' },
    });
  });

  it('contains a failing inline function in an error return', async () => {
    const out = await runInline(env(), builtin, job('probe.boom'));
    expect(out).toMatchObject({ retcode: 1, success: false });
    expect(String(out?.return)).toContain('inline failure');
  });

  it('leaves functions not marked inline, and multi-function jobs, to a job process', async () => {
    await expect(runInline(env(), builtin, job('probe.slow'))).resolves.toBeUndefined();
    await expect(
      runInline(env(), builtin, job(['probe.ping', 'probe.ping'], [[], []])),
    ).resolves.toBeUndefined();
    await expect(runInline(env(), builtin, job('probe.missing'))).resolves.toBeUndefined();
    await expect(runInline(env(), builtin, job('noperiod'))).resolves.toBeUndefined();
  });

  it('leaves a built-in that does not load under its own name to a job process, importing nothing else', async () => {
    await expect(runInline(env(), builtin, job('gated.x'))).resolves.toBeUndefined();
    await expect(runInline(env(), builtin, job('renamed.x'))).resolves.toBeUndefined();
    expect((globalThis as { __inlineEvilRan?: boolean }).__inlineEvilRan).toBeUndefined();
  });

  it('never runs code from extension folders here, even when it is marked inline', async () => {
    // a custom module that shadows a built-in one, and a custom module of its own
    await expect(runInline(env(), builtin, job('shadowed.ping'))).resolves.toBeUndefined();
    await expect(runInline(env(), builtin, job('own.ping'))).resolves.toBeUndefined();
  });
});
