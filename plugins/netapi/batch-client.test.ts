import { describe, expect, it } from 'vitest';
import { batchOptions } from './batch-client.js';

describe('batchOptions (local_batch chunk keys)', () => {
  it('reads batch (or batch_size), batch_wait and failhard with Salt defaults', () => {
    expect(batchOptions({})).toEqual({ size: '10%', wait: 0, failhard: false });
    expect(batchOptions({ batch: 2, batch_wait: '3', failhard: true })).toEqual({
      size: '2',
      wait: 3,
      failhard: true,
    });
    expect(batchOptions({ batch_size: '25%' }).size).toBe('25%');
  });
  it.each([
    [{ batch: 'lots' }, 'SALT_ERR_INVOCATION'],
    [{ batch: 0 }, 'SALT_ERR_INVOCATION'],
    [{ batch: true }, 'NETAPI_ERR_BAD_LOWSTATE'],
    [{ batch: { n: 1 } }, 'NETAPI_ERR_BAD_LOWSTATE'],
    [{ batch_wait: 'x' }, 'NETAPI_ERR_BAD_LOWSTATE'],
    [{ batch_wait: -1 }, 'NETAPI_ERR_BAD_LOWSTATE'],
    [{ failhard: 'yes' }, 'NETAPI_ERR_BAD_LOWSTATE'],
  ])('%j is refused (%s)', (chunk, code) => {
    expect(() => batchOptions(chunk)).toThrow(expect.objectContaining({ code }));
  });
});
