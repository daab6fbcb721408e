import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke, memoryLogger } from './_fake-ctx.js';
import log from './log.js';

describe('log module', () => {
  it('writes the message at its level and returns True, as Salt does', async () => {
    const logger = memoryLogger();
    const ctx = fakeCtx({ log: logger });
    expect((await invoke(log, 'debug', ['hello'], ctx)).value).toBe(true);
    expect((await invoke(log, 'warning', ['careful'], ctx)).value).toBe(true);
    expect(logger.lines.map(([level, , msg]) => [level, msg])).toEqual([
      ['debug', 'hello'],
      ['warn', 'careful'],
    ]);
  });
});
