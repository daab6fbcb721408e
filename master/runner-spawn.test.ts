import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SaltError } from '../kernel/errors.js';
import { silentLogger } from '../kernel/log.js';
import type { RunnerJobMessage } from './runner-protocol.js';
import { spawnRunner } from './runner-spawn.js';

const ENTRY = `
process.once('message', (job) => {
  if (job.fun === 'x.ok') process.send({ type: 'done', success: true }, () => process.exit(0));
  else if (job.fun === 'x.crash') process.exit(9);
  else setInterval(() => {}, 1000);
});
`;

function job(fun: string): RunnerJobMessage {
  return {
    type: 'run',
    fun,
    args: [],
    kwargs: {},
    jid: '1',
    user: 'u',
    configDir: '/',
    config: {},
    reloadConfig: false,
  };
}

function start(fun: string, timeoutSeconds?: number): Promise<SaltError | 'exited'> {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-runner-spawn-'));
  const entry = join(dir, 'entry.mjs');
  writeFileSync(entry, ENTRY);
  return new Promise((resolve) => {
    const child = spawnRunner({
      job: job(fun),
      log: silentLogger(),
      entry,
      ...(timeoutSeconds !== undefined && { timeoutSeconds }),
      onFailure: (err) => resolve(err),
    });
    child.on('exit', () => setTimeout(() => resolve('exited'), 100));
  });
}

describe('spawnRunner', () => {
  it('a runner that says it is done is no failure', async () => {
    expect(await start('x.ok')).toBe('exited');
  });
  it('a runner process that dies is reported', async () => {
    const err = (await start('x.crash')) as SaltError;
    expect(err.code).toBe('SALT_ERR_RUNNER_CRASHED');
    expect(err.message).toBe('the process running runner x.crash died: exit code 9');
  });
  it('a runner past its timeout is killed and reported', async () => {
    const err = (await start('x.hang', 0.3)) as SaltError;
    expect(err.code).toBe('SALT_ERR_RUNNER_TIMEOUT');
    expect(err.message).toBe('runner x.hang did not finish within 0.3 s and was stopped');
  });
});
