// The ethtool states through a real masterless salt-call of tsalt run inside a throwaway network
// namespace holding a veth pair: its offloads are really switched (veth allows that), while its
// coalescing, ring and pause settings are ones the driver does not report. The returns are those
// of Salt 3006.18's salt-call --local for the same calls (/tmp/gpg21 harness).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runCommand } from '../../tools/local-cluster.js';
import { localCaller } from '../support/local-call.js';

const ns = `tsalt-eth-${randomBytes(4).toString('hex')}`;
const root = mkdtempSync(join(tmpdir(), 'tsalt-ethst-'));
let unavailable: string | null = null;
try {
  execFileSync('ip', ['netns', 'add', ns], { stdio: ['ignore', 'ignore', 'pipe'] });
  execFileSync('ip', ['-n', ns, 'link', 'add', 'v0', 'type', 'veth', 'peer', 'name', 'v1'], {
    stdio: 'ignore',
  });
  execFileSync('ip', ['-n', ns, 'link', 'set', 'v0', 'up'], { stdio: 'ignore' });
  execFileSync('ethtool', ['--version'], { stdio: 'ignore' });
} catch (err) {
  unavailable = `cannot make a network namespace with a veth pair: ${String(err)}`;
}

describe.skipIf(unavailable !== null)('ethtool states', () => {
  // the minion config is written by localCaller; the calls run in the namespace
  const { etc } = localCaller(root, 'eth1');
  const state = async (...args: string[]) => {
    const r = await runCommand(
      'ip',
      [
        'netns',
        'exec',
        ns,
        process.execPath,
        join(REPO, 'dist/cli/salt-call.js'),
        '-c',
        etc,
        '--local',
        '--out',
        'json',
        'state.single',
        ...args,
      ],
      120_000,
    );
    const local = (JSON.parse(r.stdout) as { local: Record<string, Record<string, unknown>> }).local;
    const ret = Object.values(local)[0] ?? {};
    return { result: ret.result, changes: ret.changes, comment: ret.comment };
  };
  const tso = () =>
    /tcp-segmentation-offload: (\w+)/.exec(
      execFileSync('ip', ['netns', 'exec', ns, 'ethtool', '-k', 'v0'], { encoding: 'utf8' }),
    )?.[1];

  beforeAll(() => {
    execFileSync('ip', ['netns', 'exec', ns, 'ethtool', '-K', 'v0', 'tso', 'on']);
  });
  afterAll(() => {
    execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
    rmSync(root, { recursive: true, force: true });
  });

  it('offload: predicts under test=True, switches, then is up to date', async () => {
    expect(await state('ethtool.offload', 'v0', 'tcp_segmentation_offload=False', 'test=True')).toEqual({
      result: null,
      changes: {},
      comment: 'Device v0 offload settings are set to be updated:\ntcp_segmentation_offload: off',
    });
    expect(tso()).toBe('on');
    expect(await state('ethtool.offload', 'v0', 'tcp_segmentation_offload=False')).toEqual({
      result: true,
      changes: { ethtool_offload: 'tcp_segmentation_offload: off' },
      comment: 'Device v0 offload settings updated.',
    });
    expect(tso()).toBe('off');
    // a command-line `off` is YAML's False, as in Salt: nothing to change
    expect(await state('ethtool.offload', 'v0', 'tcp_segmentation_offload=off')).toEqual({
      result: true,
      changes: {},
      comment: 'Network device v0 offload settings are up to date.',
    });
    expect(
      await state('ethtool.offload', 'v0', 'tcp_segmentation_offload=True', 'scatter_gather=True'),
    ).toEqual({
      result: true,
      changes: { ethtool_offload: 'tcp_segmentation_offload: on' },
      comment: 'Device v0 offload settings updated.',
    });
    expect(tso()).toBe('on');
    expect(await state('ethtool.offload', 'v0', 'tcp_segmentation_offload=True')).toEqual({
      result: true,
      changes: {},
      comment: 'Network device v0 offload settings are up to date.',
    });
  }, 300_000);

  it('coalesce and ring: a device that does not report them fails the state', async () => {
    expect(await state('ethtool.coalesce', 'v0', 'rx_usecs=3')).toEqual({
      result: false,
      changes: {},
      comment: 'Device v0 coalescing settings are not supported',
    });
    expect(await state('ethtool.ring', 'v0', 'rx=128', 'test=True')).toEqual({
      result: false,
      changes: {},
      comment: 'Device v0 ring parameters are not supported',
    });
  }, 240_000);
});
