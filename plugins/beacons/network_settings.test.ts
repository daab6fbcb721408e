// a throwaway ifb link (no traffic: it stays down) whose settings the test changes
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beaconCtx } from './_test-ctx.js';
import networkSettings from './network_settings.js';

const IF = `bo21s${process.pid % 1000}`;
const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

describe('network_settings beacon', () => {
  beforeAll(() => ip('link', 'add', IF, 'type', 'ifb'));
  afterAll(() => ip('link', 'del', IF));

  it('validates as Salt does', () => {
    expect(networkSettings.validate?.({ interfaces: ['eth0'] })).toBe(
      'interfaces section for network_settings beacon must be a dictionary.',
    );
    expect(networkSettings.validate?.({ interfaces: { eth0: 'x' } })).toBe(
      'Interface attributes for network_settings beacon must be a dictionary.',
    );
    expect(networkSettings.validate?.({ interfaces: { eth0: { foo: {} } } })).toBe(
      'Invalid attributes in beacon configuration.',
    );
  });

  it('records the first run, then fires the watched attributes that changed, onvalue-filtered', async () => {
    const ctx = beaconCtx();
    const config = { interfaces: { [IF]: { mtu: {}, ipaddr: {}, promiscuity: { onvalue: 1 }, qdisc: {} } } };
    expect(await networkSettings.beacon(ctx, config)).toEqual([]);
    ip('link', 'set', IF, 'mtu', '1400');
    ip('addr', 'add', '198.51.100.7/32', 'dev', IF);
    ip('link', 'set', IF, 'promisc', 'on');
    expect(await networkSettings.beacon(ctx, config)).toEqual([
      { tag: IF, interface: IF, change: { mtu: 1400, ipaddr: [['198.51.100.7', 32]], promiscuity: 1 } },
    ]);
    expect(await networkSettings.beacon(ctx, config)).toEqual([]);
    ip('link', 'set', IF, 'promisc', 'off');
    ip('link', 'set', IF, 'mtu', '1300');
    // a regular expression picks interfaces; coalesce gathers their changes under `result`
    expect(
      await networkSettings.beacon(ctx, {
        interfaces: { '^bo21s': { mtu: {}, promiscuity: { onvalue: 1 } } },
        coalesce: true,
      }),
    ).toEqual([{ tag: 'result', changes: { [IF]: { mtu: 1300 } } }]);
  });
});
