import { describe, expect, it } from 'vitest';
import { parseControlMessage } from './ipc-messages.js';

describe('parseControlMessage', () => {
  it('recognises ready and fatal, and passes anything else through', () => {
    expect(parseControlMessage({ type: 'ready' })).toEqual({ type: 'ready' });
    expect(parseControlMessage({ type: 'fatal', code: 'SALT_ERR_X', message: 'boom', extra: 1 })).toEqual({
      type: 'fatal',
      code: 'SALT_ERR_X',
      message: 'boom',
    });
    expect(parseControlMessage({ type: 'event', tag: 'salt/x' })).toBeUndefined();
    expect(parseControlMessage('ready')).toBeUndefined();
    expect(parseControlMessage(null)).toBeUndefined();
    expect(parseControlMessage([{ type: 'ready' }])).toBeUndefined();
  });

  it('gives a fatal message without a code the start-failure code', () => {
    expect(parseControlMessage({ type: 'fatal', message: 'no code' })).toEqual({
      type: 'fatal',
      code: 'SALT_ERR_PROCESS_CHILD_START',
      message: 'no code',
    });
  });
});
