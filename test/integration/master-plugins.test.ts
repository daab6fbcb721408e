/**
 * A kernel plugin from master.config.ts sees every minion return: the request server's main
 * thread, which handles returns itself, applies the config's plugins as its worker threads do.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, REPO } from '../../tools/local-cluster.js';

describe('a returnReceived plugin in master.config.ts', () => {
  const c = new Cluster();
  const seen = join(c.root, 'plugin-saw');

  beforeAll(async () => {
    await c.writeMasterConfig();
    const index = JSON.stringify(join(REPO, 'dist/kernel/index.js'));
    writeFileSync(
      join(c.confDir, 'master.config.ts'),
      `import { appendFileSync, readFileSync } from 'node:fs';
import { defineConfig, stages } from ${index};

const base: Record<string, unknown> = Object.fromEntries(
  readFileSync(${JSON.stringify(join(c.confDir, 'master'))}, 'utf8').split('\\n').filter(Boolean)
    .map((l: string) => [l.slice(0, l.indexOf(':')), JSON.parse(l.slice(l.indexOf(':') + 1))]),
);

export default defineConfig({
  ...base,
  plugins: [
    {
      name: 'acme-seen',
      apply(api) {
        api.hooks.returnReceived.tapPromise({ name: 'acme-seen', stage: stages.STAGE_RETURNERS }, async (ret) => {
          appendFileSync(${JSON.stringify(seen)}, \`\${ret.id} \${ret.jid} \${String(ret.return)}\\n\`);
        });
      },
    },
  ],
});
`,
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
