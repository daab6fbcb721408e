/**
 * A kernel plugin from master.config.ts sees every minion return: the request server's main
 * thread, which handles returns itself, applies the config's plugins as its worker threads do.
 * Its hooks mean what docs/hooks.md says: the load `beforePublish` returns is the one stored and
 * published, `eventFired` sees the request server's events, `runnerReturned` every runner's end.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, PUBLIC_API } from '../../tools/local-cluster.js';
import { fileMatching } from '../support/file-wait.js';

describe('a returnReceived plugin in master.config.ts', () => {
  const c = new Cluster();
  const seen = join(c.root, 'plugin-saw');
  const fired = join(c.root, 'plugin-events');
  const runners = join(c.root, 'plugin-runners');

  beforeAll(async () => {
    await c.writeMasterCodeConfig(
      `import { appendFileSync } from 'node:fs';
import { stages } from ${JSON.stringify(PUBLIC_API)};`,
      `plugins: [
    {
      name: 'acme-seen',
      apply(api) {
        api.hooks.returnReceived.tapPromise({ name: 'acme-seen', stage: stages.STAGE_RETURNERS }, async (ret) => {
          appendFileSync(${JSON.stringify(seen)}, \`\${ret.id} \${ret.jid} \${String(ret.return)}\\n\`);
        });
        api.hooks.beforePublish.tapPromise('acme-seen', async (load) =>
          load.fun === 'test.echo' ? { ...load, arg: ['stamped'], metadata: { audit: 'acme' } } : load,
        );
        api.hooks.eventFired.tap('acme-seen', (event) => appendFileSync(${JSON.stringify(fired)}, \`\${event.tag}\\n\`));
        api.hooks.runnerReturned.tapPromise('acme-seen', async (ret) => {
          appendFileSync(${JSON.stringify(runners)}, \`\${ret.jid} \${ret.fun} \${JSON.stringify(ret.return)}\\n\`);
        });
      },
    },
  ]`,
    );
    await c.startMaster();
    await c.startMinion('plug1');
  }, 120_000);
  afterAll(() => c.stop());

  it('taps the return of a job', async () => {
    const run = await c.salt(['--out', 'json', '--static', '*', 'test.ping']);
    expect(JSON.parse(run.stdout)).toEqual({ plug1: true });
    const deadline = Date.now() + 5000;
    while (!existsSync(seen) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(seen, 'utf8')).toMatch(/^plug1 \d{20} true\n/m);
  });

  it('stores and publishes the load beforePublish returned', async () => {
    const run = await c.salt(['--out', 'json', '--static', 'plug1', 'test.echo', 'original']);
    expect(JSON.parse(run.stdout)).toEqual({ plug1: 'stamped' });
    const { def, ctx } = await c.jobCache();
    const jobs = await def.getJids!(ctx);
    const jid = Object.keys(jobs).find((j) => jobs[j]?.Function === 'test.echo');
    const load = await def.getLoad!(jid ?? '', ctx);
    expect(load).toMatchObject({ fun: 'test.echo', arg: ['stamped'], metadata: { audit: 'acme' } });
  });

  it('calls eventFired with the events the request server fires', async () => {
    const run = await c.salt(['--out', 'json', '-v', 'plug1', 'test.ping']);
    const jid = /(\d{20})/.exec(run.stdout)?.[1];
    const text = await fileMatching(fired, new RegExp(`salt/job/${jid}/ret/plug1`));
    expect(text).toContain(`salt/job/${jid}/new\n`);
    expect(text).toContain(`salt/job/${jid}/ret/plug1\n`);
  });

  it('calls runnerReturned when a runner ends, in its process', async () => {
    const run = await c.saltRun(['--out', 'json', 'test.arg', 'x']);
    expect(run.code).toBe(0);
    expect(await fileMatching(runners, /test\.arg/)).toMatch(
      /^\d{20} test\.arg \{"args":\["x"\],"kwargs":\{\}\}$/m,
    );
  });
});
