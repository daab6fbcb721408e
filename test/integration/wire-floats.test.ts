// Integral floats over the wire: `salt m1 test.arg k=1.0` keeps 1.0 from the CLI through the
// master's publish, the minion's job process, the return and the master's event to the CLI's
// outputters, as Salt prints it (Python keeps 1.0 apart from 1; msgpack float64 stays a float).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

const c = new Cluster({ quiet: true });
beforeAll(async () => {
  await c.startMaster();
  await c.startMinion('f1');
}, 120_000);
afterAll(() => c.stop());

const ARGS = ['f1', 'test.arg', 'k=1.0', '2.0', 'x=[1.0, 2.5, {a: 3.0}]'];

describe('integral floats over the wire', () => {
  it('json and yaml print 1.0, not 1', async () => {
    const json = await c.salt([...ARGS, '--out', 'json', '--static']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toContain('"k": 1.0,');
    expect(json.stdout).toMatch(/"args": \[\n\s+2\.0\n\s+\]/);
    expect(json.stdout).toMatch(/"a": 3\.0\n/);
    const yaml = await c.salt([...ARGS, '--out', 'yaml']);
    expect(yaml.stdout).toContain('  - 2.0\n');
    expect(yaml.stdout).toContain('    k: 1.0\n');
  });

  it('nested and txt print 1.0; an integer stays an integer', async () => {
    const nested = await c.salt([...ARGS, '--out', 'nested']);
    expect(nested.stdout).toContain('        k:\n            1.0\n');
    const txt = await c.salt(['f1', 'test.echo', '1.0', '--out', 'txt']);
    expect(txt.stdout).toBe('f1: 1.0\n');
    const int = await c.salt(['f1', 'test.echo', '1', '--out', 'txt']);
    expect(int.stdout).toBe('f1: 1\n');
  });
});
