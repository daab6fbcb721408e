import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import random from './random.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const call = async (fun: string, arg: unknown[] = []) => (await invoke(random, fun, arg, fakeCtx())).value;

describe('random', () => {
  it('hashes and encodes as Salt 3006 does', async () => {
    expect(await call('hash', ['abc', 'md5'])).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(await call('hash', ['abc'])).toBe(
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    );
    expect(await call('hash', ['abc', 'sha3_256'])).toBe(
      '3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532',
    );
    await expect(call('hash', ['abc', 'nope'])).rejects.toThrow('You must specify a valid algorithm.');
    expect(await call('str_encode', ['hello'])).toBe('aGVsbG8=');
  });

  it('makes /etc/shadow hashes (Salt 3006 gave these for the same salt and password)', async () => {
    expect(await call('shadow_hash', ['saltsalt', 'secret'])).toBe(
      '$6$saltsalt$TVLlQcbpFVof5W3Yz4DTP6gRstiNuHwwTt6GLc1E5n0U0aDehy0S5knV8wiOQSpT0Y77vwPZN.Pq.H91p5hVO1',
    );
    expect(String(await call('shadow_hash'))).toMatch(/^\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/);
  });

  it('random strings and numbers stay in their bounds', async () => {
    expect(await call('get_str', [12])).toHaveLength(12);
    expect(await call('get_str', [30, kw({ chars: 'ab' })])).toMatch(/^[ab]{30}$/);
    expect(await call('get_str', [20, kw({ punctuation: false, uppercase: false })])).toMatch(
      /^[a-z0-9]{20}$/,
    );
    for (let i = 0; i < 20; i++) {
      const n = (await call('rand_int', [1, 3])) as number;
      expect(n >= 1 && n <= 3).toBe(true);
    }
    expect(((await call('shuffle', [[1, 2, 3]])) as number[]).sort()).toEqual([1, 2, 3]);
    expect(await call('sample', [[1, 2, 3], 2])).toHaveLength(2);
  });
});
