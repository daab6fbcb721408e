import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { beaconCtx } from './_test-ctx.js';
import networkInfo from './network_info.js';

describe('network_info beacon', () => {
  it('validates as Salt does', () => {
    expect(networkInfo.validate?.({ interfaces: { lo: 'x' } })).toBe(
      'Configuration for network_info beacon must be a list of dictionaries.',
    );
    expect(networkInfo.validate?.({ interfaces: { lo: { foo: 1 } } })).toBe(
      'Invalid configuration item in Beacon configuration.',
    );
    expect(networkInfo.validate?.({ interfaces: { lo: { type: 'greater', bytes_sent: 1 } } })).toBe(true);
  });

  it("fires an interface's /proc/net/dev counters when one meets its value", async () => {
    const ret = (await networkInfo.beacon(beaconCtx(), {
      interfaces: { lo: { type: 'greater', bytes_recv: -1 }, nosuch0: { bytes_sent: 0 } },
    })) as Array<{ interface: string; network_info: Record<string, number> }>;
    expect(ret.map((e) => e.interface)).toEqual(['lo']);
    const line = readFileSync('/proc/net/dev', 'utf8')
      .split('\n')
      .find((l) => l.trim().startsWith('lo:'))!;
    const recv = Number(line.split(':')[1]!.trim().split(/\s+/)[0]);
    expect(ret[0]!.network_info.bytes_recv).toBeLessThanOrEqual(recv);
    expect(Object.keys(ret[0]!.network_info)).toEqual([
      'bytes_sent',
      'bytes_recv',
      'packets_sent',
      'packets_recv',
      'errin',
      'errout',
      'dropin',
      'dropout',
    ]);
    expect(await networkInfo.beacon(beaconCtx(), { interfaces: { lo: { bytes_recv: -1 } } })).toEqual([]);
    expect(() => networkInfo.beacon(beaconCtx(), { interfaces: { lo: { bytes_recv: 'x' } } })).toThrow(
      "invalid literal for int() with base 10: 'x'",
    );
  });
});
