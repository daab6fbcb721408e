// ethtool module: the program's reports parsed as Salt's python-ethtool calls return them, and
// the module run on this machine's loopback device and on a device that does not exist.
// Expectations: Salt 3006.18 (with python3-ethtool) on this machine.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { parseCoalesce, parseRing } from './_ethtool-parse.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import ethtoolMod from './ethtool.js';

const fx = (name: string): string =>
  readFileSync(path.join(import.meta.dirname, '..', 'test', 'fixtures', 'debian-ip', name), 'utf8');

describe('ethtool reports parsed as Salt returns them', () => {
  it('reads rings in the kernel struct order, n/a as 0', () => {
    expect(JSON.stringify(parseRing(fx('ethtool-g.txt')))).toBe(
      '{"rx_max":256,"rx_mini_max":0,"rx_jumbo_max":0,"tx_max":256,"rx":256,"rx_mini":0,"rx_jumbo":0,"tx":256}',
    );
  });
  it('reads coalescing with Salt key names (its rx_frames_irg included)', () => {
    const c = parseCoalesce(fx('ethtool-c.txt'));
    expect(Object.keys(c).slice(0, 4)).toEqual(['rx_usecs', 'rx_frames', 'rx_usecs_irq', 'rx_frames_irg']);
    expect(c.rx_frames).toBe(1);
    expect(c.adaptive_rx).toBe(0);
    expect(Object.keys(c)).toHaveLength(22);
  });
});

const ctx = moduleCtx([cmdMod, ethtoolMod]);
const call = (fn: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
  ctx.call(`ethtool.${fn}`, args, kw);

describe.skipIf(!which('ethtool'))('ethtool on this machine', () => {
  it('answers what lo and a missing device cannot do as Salt does', async () => {
    expect(await call('show_ring', ['lo'])).toBe('Not supported');
    expect(await call('show_coalesce', ['lo'])).toBe('Not supported');
    expect(await call('show_driver', ['lo'])).toBe('Not implemented');
    expect(await call('show_driver', ['tsaltnosuch0'])).toBe('Not implemented');
    expect(await call('set_ring', ['lo'], { rx: 100 })).toBe('Not supported');
    expect(await call('show_offload', ['tsaltnosuch0'])).toEqual({
      scatter_gather: 'not supported',
      tcp_segmentation_offload: 'not supported',
      udp_fragmentation_offload: 'not supported',
      generic_segmentation_offload: 'not supported',
    });
    expect(await call('show_pause', ['tsaltnosuch0'])).toEqual({ 'netlink error': false });
    expect(await call('set_pause', ['tsaltnosuch0'], { autoneg: 'off' })).toEqual([
      'netlink error: no device matches name (offset 24)',
      'netlink error: No such device',
    ]);
  });

  it('reads lo offloads and features', async () => {
    const off = (await call('show_offload', ['lo'])) as Record<string, string>;
    expect(off.udp_fragmentation_offload).toBe('not supported');
    expect(['on', 'off']).toContain(off.scatter_gather);
    const feats = (await call('show_features', ['lo'])) as Record<string, { on: boolean; fixed: boolean }>;
    expect(feats['rx-checksumming']).toEqual({ on: true, fixed: true });
    expect(feats['tx-checksum-ipv4']).toEqual({ on: false, fixed: true });
  });

  it('refuses keywords it does not know with Salt text', async () => {
    await expect(call('set_feature', ['lo'], { bogus: 'on' })).rejects.toThrow(
      "None of the valid parameters were provided: ['rx', 'tx', 'sg', 'tso', 'ufo', 'gso', 'gro', 'lro', 'rxvlan', 'txvlan', 'ntuple', 'rxhash']",
    );
    await expect(call('set_pause', ['lo'], { foo: 1 })).rejects.toThrow(
      "None of the valid parameters were provided: ['autoneg', 'rx', 'tx']",
    );
  });
});
