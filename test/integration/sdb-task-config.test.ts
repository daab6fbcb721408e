/**
 * A master whose config holds code (plugins in master.config.ts) has its task processes (a
 * runner job's among them) load the config again: its `sdb://` values must read there as the
 * master read them at start, and the value must reach no log, no cache file and no job cache.
 * The request server's threads load it too: a wheel function (run in a worker thread) sees the
 * values as well.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunnerClient } from '../../client/runner-client.js';
import { loadConfig } from '../../kernel/config/index.js';
import { Cluster } from '../../tools/local-cluster.js';

const SECRET = 'task-sdb-secret-5f1c';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const st = statSync(path);
    return st.isDirectory() ? filesUnder(path) : st.isFile() ? [path] : [];
  });
}

describe("sdb:// values in a task process's reloaded config", () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master, quiet: true });

  beforeAll(async () => {
    const runners = join(c.root, 'runners');
    mkdirSync(runners, { recursive: true });
    // the runner answers a digest of what it sees: the value itself reaches no job cache
    writeFileSync(
      join(runners, 'peek.mjs'),
      [
        "import { createHash } from 'node:crypto';",
        'const digest = (v) => createHash("sha256").update(JSON.stringify(v)).digest("hex");',
        "export default { name: 'peek', functions: { opt: { run: ({ opts }) => digest([opts.extra.my_secret, opts.extra.my_list]) } } };",
        '',
      ].join('\n'),
    );
    const wheel = join(c.root, 'extmods', 'wheel');
    mkdirSync(wheel, { recursive: true });
    writeFileSync(join(wheel, 'peek.mjs'), readFileSync(join(runners, 'peek.mjs')));
    const secrets = join(c.root, 'secrets.yaml');
    writeFileSync(secrets, `db:\n  pass: ${SECRET}\n`);
    Object.assign(master, {
      runner_dirs: [runners],
      extension_modules: join(c.root, 'extmods'),
      secrets: { driver: 'yaml', files: [secrets] },
      my_secret: 'sdb://secrets/db:pass',
      my_list: ['plain', 'sdb://secrets/db:pass', 'sdb://nosuchprofile/x'],
    });
    // a plugin makes every master process load the config itself
    await c.writeMasterCodeConfig('', "plugins: [{ name: 'acme-noop', apply() {} }]");
    await c.startMaster();
  }, 60_000);
  afterAll(() => c.stop());

  it('a runner sees the values the master read at start', async () => {
    const r = await c.saltRun(['--out', 'json', 'peek.opt']);
    expect(r.code).toBe(0);
    const want = [SECRET, ['plain', SECRET, 'sdb://nosuchprofile/x']];
    expect(JSON.parse(r.stdout)).toBe(createHash('sha256').update(JSON.stringify(want)).digest('hex'));
  });

  it("a wheel function, run in the request server's thread, sees them too", async () => {
    const client = new RunnerClient((await loadConfig('master', c.confDir)).config);
    await client.listen();
    try {
      const data = await client.wheel('peek.opt');
      const want = [SECRET, ['plain', SECRET, 'sdb://nosuchprofile/x']];
      expect(data.return).toBe(createHash('sha256').update(JSON.stringify(want)).digest('hex'));
    } finally {
      await client.close();
    }
  });

  it('the value is in no file of the master but the secrets file (logs, caches, the job cache)', () => {
    for (const file of filesUnder(c.root)) {
      if (file.endsWith('secrets.yaml')) continue;
      expect(readFileSync(file).includes(SECRET), file).toBe(false);
    }
  });
});
