import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../kernel/log.js';
import type { TaskFailure } from '../kernel/process/task.js';
import { spawnTask } from './task-spawn.js';

const ENTRY = `
process.once('message', (m) => {
  if (m.payload === 'ok') process.send({ type: 'done' }, () => process.exit(0));
  else if (m.payload === 'crash') process.exit(9);
  else setInterval(() => {}, 1000);
});
`;

function start(payload: string, timeoutSeconds?: number): Promise<TaskFailure | 'exited'> {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-task-spawn-'));
  const entry = join(dir, 'entry.mjs');
  writeFileSync(entry, ENTRY);
  return new Promise((resolve) => {
    const child = spawnTask({
      message: {
        type: 'task',
        task: 'x',
        title: 'x',
        payload,
        configDir: '/',
        config: {},
        reloadConfig: false,
      },
      log: silentLogger(),
      entry,
      ...(timeoutSeconds !== undefined && { timeoutSeconds }),
      onFailure: (failure) => resolve(failure),
    });
    child.on('exit', () => setTimeout(() => resolve('exited'), 100));
  });
}

describe('spawnTask', () => {
  it('a task that says it is done is no failure', async () => {
    expect(await start('ok')).toBe('exited');
  });
  it('a task process that dies is reported', async () => {
    expect(await start('crash')).toEqual({ reason: 'crashed', detail: 'exit code 9' });
  });
  it('a task past its timeout is stopped and reported', async () => {
    expect(await start('hang', 0.3)).toEqual({ reason: 'timeout', seconds: 0.3 });
  });
});
