/**
 * A kernel plugin in a minion's code config: the minion applies it and calls its hooks.
 * `grainsLoaded` sees the grains the minion computed, `beforeJob` may change a job or refuse it
 * (the master then gets the error as the job's return), `jobReturned` sees every job's end.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { fileMatching } from '../support/file-wait.js';

describe('a kernel plugin on a minion', () => {
  const c = new Cluster();
  const grains = join(c.root, 'minion-grains');
  const returned = join(c.root, 'minion-returned');

  beforeAll(async () => {
    await c.startMaster();
    const dir = c.minionConfDir('mp1');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'minion.config.mjs'),
      `import { appendFileSync, readFileSync } from 'node:fs';
const base = Object.fromEntries(
  readFileSync(new URL('./minion', import.meta.url), 'utf8').split('\\n').filter(Boolean)
    .map((l) => [l.slice(0, l.indexOf(':')), JSON.parse(l.slice(l.indexOf(':') + 1))]),
);
export default {
  ...base,
  plugins: [
    {
      name: 'acme-minion',
      daemons: ['minion'],
      apply(api) {
        api.hooks.grainsLoaded.tap('acme-minion', (g) => appendFileSync(${JSON.stringify(grains)}, g.id + '\\n'));
        api.hooks.beforeJob.tapPromise('acme-minion', async (job) => {
          if (job.fun === 'test.arg') throw new Error('test.arg is not allowed here');
          return job.fun === 'test.echo' ? { ...job, arg: ['rewritten'] } : job;
        });
        api.hooks.jobReturned.tapPromise('acme-minion', async (job, outcome) => {
          appendFileSync(${JSON.stringify(returned)}, job.jid + ' ' + job.fun + ' ' + outcome.retcode + '\\n');
        });
      },
    },
  ],
};
`,
    );
    await c.startMinion('mp1');
  }, 60_000);
  afterAll(() => c.stop());

  it('grainsLoaded sees the grains the minion computed at start', async () => {
    expect(await fileMatching(grains, /mp1/)).toBe('mp1\n');
  });

  it('beforeJob changes a job, and refuses one with its error as the return', async () => {
    const echo = await c.saltJson(['mp1', 'test.echo', 'original']);
    expect(echo.data).toEqual({ mp1: 'rewritten' });
    const refused = await c.saltJson(['mp1', 'test.arg', 'x']);
    // the error names the hook and the plugin that refused the job
    expect(refused.data).toEqual({
      mp1: 'ERROR: hook "beforeJob" failed in plugin "acme-minion": test.arg is not allowed here',
    });
    expect(refused.code).toBe(1);
  });

  it('jobReturned sees each job end, with its retcode', async () => {
    const run = await c.saltJson(['mp1', 'cmd.run', 'exit 3']);
    expect(run.code).not.toBe(0);
    expect(await fileMatching(returned, /cmd\.run 3/)).toMatch(/^\d{20} cmd\.run 3$/m);
  });
});
