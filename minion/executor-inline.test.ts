import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createModuleLoader } from '../kernel/loader/index.js';
import { JobExecutor } from './executor.js';
import type { RunEnv } from './run-function.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-exec-inline-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const log = pino({ level: 'silent' });
// an extension module the operator trusts to run inline (`inline_modules`): built-in modules are
// compiled files, which vitest's sources are not
const dir = join(root, 'modules');
mkdirSync(dir, { recursive: true });
writeFileSync(
  join(dir, 'probe.mjs'),
  "export default { name: 'probe', functions: { ping: { inline: true, run: () => true } } };\n",
);

function runEnv(): RunEnv {
  const loader = createModuleLoader({
    dirs: [dir],
    virtualContext: { opts: {}, grains: {} },
    log,
  });
  return { loader, opts: {}, grains: {}, id: 'm1', log };
}

function executor(multiprocessing: boolean): JobExecutor {
  return new JobExecutor({
    multiprocessing,
    env: () => ({}),
    cachedir: root,
    log,
    runEnv,
    maxJobs: 0,
    maxProcesses: 1,
    inline: () => true,
    inlineModules: ['probe'],
  });
}

describe('JobExecutor.ranInline: the minion skips its grains file check after these', () => {
  it('says so for a job it ran inline (probe.ping), with the outcome unchanged', async () => {
    const ex = executor(true);
    const outcome = await ex.run({ jid: '20261128120000000001', fun: 'probe.ping', arg: [] });
    expect(outcome).toMatchObject({ return: true, retcode: 0, success: true });
    expect(ex.ranInline(outcome)).toBe(true);
    await ex.close();
  });

  it('does not for a job run in-process without multiprocessing (any function, which may write the grains file)', async () => {
    const ex = executor(false);
    const outcome = await ex.run({ jid: '20261128120000000002', fun: 'probe.ping', arg: [] });
    expect(outcome).toMatchObject({ return: true });
    expect(ex.ranInline(outcome)).toBe(false);
    await ex.close();
  });
});
