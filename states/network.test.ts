// network states over the ip module on this machine's real /etc/network route scripts (made for
// the test and removed after). Expectations: Salt 3006.18's state.single on the same files.
import { existsSync, mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cmdMod from '../modules/cmd.js';
import ipMod from '../modules/ip.js';
import { moduleCtx, runState } from './_test-ctx.js';
import networkStates from './network.js';

const ctx = moduleCtx([cmdMod, ipMod]);
const UP = '/etc/network/if-up.d';
const DOWN = '/etc/network/if-down.d';
const made: string[] = [];

beforeAll(() => {
  for (const d of ['/etc/network', UP, DOWN]) {
    if (!existsSync(d)) {
      mkdirSync(d);
      made.push(d);
    }
  }
  writeFileSync(
    `${UP}/route-tsaltrt9`,
    '#!/bin/sh\n# add\nip route add 10.9.0.0/16 via 10.0.0.1 dev tsaltrt9\n',
  );
  writeFileSync(
    `${DOWN}/route-tsaltrt9`,
    '#!/bin/sh\n# del\nip route del 10.9.0.0/16 via 10.0.0.1 dev tsaltrt9\n',
  );
});

afterAll(() => {
  rmSync(`${UP}/route-tsaltrt9`, { force: true });
  rmSync(`${DOWN}/route-tsaltrt9`, { force: true });
  for (const d of made.reverse()) rmdirSync(d);
});

const routes = (name: string, kw: Record<string, unknown>) =>
  runState(networkStates, 'routes', { name, ...kw }, { test: true, ctx });

describe('network.routes in test mode', () => {
  it('shows the change of existing route scripts as a unified diff', async () => {
    const ret = await routes('tsaltrt9', {
      routes: [{ ipaddr: '10.9.0.0', netmask: 16, gateway: '10.0.0.1' }],
    });
    const test = `+test "$${'{'}IFACE}" = "tsaltrt9" || exit 0\n`;
    expect(ret.result).toBe(null);
    expect(ret.comment).toBe(
      'Interface tsaltrt9 routes are set to be updated:\n--- \n+++ \n@@ -1,6 +1,8 @@\n #!/bin/sh\n\n # add\n\n' +
        `${test}\n ip route add 10.9.0.0/16 via 10.0.0.1 dev tsaltrt9\n\n #!/bin/sh\n\n # del\n\n` +
        `${test}\n ip route del 10.9.0.0/16 via 10.0.0.1 dev tsaltrt9\n`,
    );
  });

  it('reports new routes and a missing routes argument as Salt does', async () => {
    const added = await routes('tsaltrt6', { routes: [{ ipaddr: '10.6.0.0', netmask: 16 }] });
    expect([added.result, added.comment]).toEqual([null, 'Interface tsaltrt6 routes are set to be added.']);
    const bad = await routes('tsaltrt6', {});
    expect([bad.result, bad.comment]).toEqual([
      false,
      'Invalid option -- Route interface: tsaltrt6, Option: routes, Expected: [List of routes]',
    ]);
  });
});

describe('network.managed and network.system in test mode', () => {
  it('reports a new interface and a bad bond mode', async () => {
    const added = await runState(
      networkStates,
      'managed',
      { name: 'tsaltnew5', type: 'eth', proto: 'static', ipaddr: '10.3.0.2', netmask: 24 },
      { test: true, ctx },
    );
    expect([added.result, added.comment]).toEqual([null, 'Interface tsaltnew5 is set to be added.']);
    const bond = await runState(
      networkStates,
      'managed',
      { name: 'tsaltb1', type: 'bond', proto: 'manual', slaves: 'eth7', mode: 9 },
      { test: true, ctx },
    );
    expect(bond.result).toBe(false);
    expect(bond.comment).toBe(
      'Invalid option -- Interface: tsaltb1, Option: mode, Expected: [0|1|2|3|4|5|6|balance-rr|active-backup|balance-xor|broadcast|802.3ad|balance-tlb|balance-alb]',
    );
  });

  it.skipIf(existsSync('/etc/default/networking'))(
    'refuses a global setting without networking as Salt does',
    async () => {
      const ret = await runState(
        networkStates,
        'system',
        { name: 'glob', hostname: 'vm' },
        { test: true, ctx },
      );
      expect(ret.result).toBe(false);
      expect(ret.comment).toBe(
        'Invalid network setting -- Setting: networking, Expected: [yes|on|true|1|True|no|off|false|0|False]',
      );
    },
  );
});
