/**
 * State runs compile the pillar afresh, as Salt's `State.__init__` (`_gather_pillar`): a pillar
 * file edited after the minion started is seen by the next `state.apply` without a refresh, while
 * `pillar.get` keeps reading the minion's in-memory pillar (as Salt's); a pillar broken after the
 * start stops the run with Salt's list and retcode 5.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

const master: Record<string, unknown> = {};
const c = new Cluster({ master });
const pillarDir = join(c.root, 'pillar');
const states = join(c.root, 'states');

const setValue = (text: string) => writeFileSync(join(pillarDir, 'val.sls'), text);

/** The `name` of the one state `show` ran, or the run's answer when it is not a state result. */
async function shownName(fun: string, ...args: string[]): Promise<unknown> {
  const r = await c.saltJson(['fp1', fun, 'show', ...args]);
  const ret = r.data.fp1;
  if (!ret || typeof ret !== 'object' || Array.isArray(ret)) return ret;
  return (Object.values(ret)[0] as { name?: unknown }).name;
}

beforeAll(async () => {
  mkdirSync(pillarDir, { recursive: true });
  mkdirSync(states, { recursive: true });
  writeFileSync(join(pillarDir, 'top.sls'), "base:\n  '*':\n    - val\n");
  setValue('val: first\n');
  writeFileSync(
    join(states, 'show.sls'),
    "shown:\n  test.succeed_without_changes:\n    - name: {{ pillar.get('val', 'none') }}\n",
  );
  Object.assign(master, { pillar_roots: { base: [pillarDir] }, file_roots: { base: [states] } });
  await c.startMaster();
  await c.startMinion('fp1');
}, 120_000);
afterAll(() => c.stop());

describe('a state run compiles its own pillar', () => {
  it('sees a pillar edited after the start, without a refresh; pillar.get keeps the held one', async () => {
    expect(await shownName('state.apply')).toBe('first');
    setValue('val: second-value\n');
    expect(await shownName('state.apply')).toBe('second-value');
    expect(await shownName('state.sls', 'pillar={"val": "given"}')).toBe('given');
    const held = await c.saltJson(['fp1', 'pillar.get', 'val']);
    expect(held.data.fp1).toBe('first');
  });

  it('a pillar broken after the start stops the run (retcode 5), and show_sls raises', async () => {
    setValue('val: {{ nope.x }}\n');
    const r = await c.saltJson(['fp1', 'state.apply', 'show']);
    expect(r.data.fp1).toEqual([
      'Pillar failed to render with the following messages:',
      "Rendering SLS 'val' failed. Please see master log for details.",
    ]);
    expect(r.code).not.toBe(0);
    const shown = await c.saltJson(['fp1', 'state.show_sls', 'show']);
    expect(String(shown.data.fp1)).toContain('Pillar failed to render. Additional info follows:');
    const held = await c.saltJson(['fp1', 'pillar.get', 'val']);
    expect(held.data.fp1).toBe('first');
  });
});
