/**
 * A kernel plugin from master.config.ts sees every minion return: the request server's main
 * thread, which handles returns itself, applies the config's plugins as its worker threads do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, PUBLIC_API } from '../../tools/local-cluster.js';

describe('a returnReceived plugin in master.config.ts', () => {
  const c = new Cluster();
  const seen = join(c.root, 'plugin-saw');

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
      },
    },
  ]`,
    );
    await c.startMaster();
    await c.startMinion('plug1');
  }, 60_000);
  afterAll(() => c.stop());

  it('taps the return of a job', async () => {
    const run = await c.salt(['--out', 'json', '--static', '*', 'test.ping']);
    expect(JSON.parse(run.stdout)).toEqual({ plug1: true });
    const deadline = Date.now() + 5000;
    while (!existsSync(seen) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(seen, 'utf8')).toMatch(/^plug1 \d{20} true\n/m);
  });
});
