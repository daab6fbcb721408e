/**
 * Builds side by side: a minion built from an earlier commit of this repository works with this
 * checkout's master, and this checkout's minion with that earlier master (sign-in, test.ping,
 * cmd.run, grains.items). The earlier tree is `TSALT_PREVIOUS_REF` (default `HEAD~100`), taken
 * with `git archive` and compiled with this checkout's TypeScript and dependencies; where the
 * history is missing (a shallow clone) the test is skipped and says why.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, Daemon, REPO } from '../../tools/local-cluster.js';

const REF = process.env.TSALT_PREVIOUS_REF ?? 'HEAD~100';
const resolved = spawnSync('git', ['-C', REPO, 'rev-parse', '--verify', '--quiet', `${REF}^{commit}`], {
  encoding: 'utf8',
});
const commit = resolved.status === 0 ? resolved.stdout.trim() : undefined;

describe.skipIf(!commit)(
  `a build of ${REF}${commit ? '' : ' (skipped: not in this clone)'} beside this checkout`,
  () => {
    const work = mkdtempSync(join(tmpdir(), 'tsalt-xver-'));
    const old = join(work, 'tree');
    /** Runs one of the earlier build's commands (as the Cluster's `program`). */
    const oldCli = (cli: string): string => {
      const path = join(work, cli);
      writeFileSync(
        path,
        `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(old, 'dist/cli', `${cli}.js`))} "$@"\n`,
      );
      chmodSync(path, 0o755);
      return path;
    };
    const current = new Cluster();
    const earlier = new Cluster();

    beforeAll(async () => {
      mkdirSync(old);
      const tar = execFileSync('git', ['-C', REPO, 'archive', commit!], { maxBuffer: 1024 * 1024 * 1024 });
      execFileSync('tar', ['-x', '-C', old], { input: tar });
      symlinkSync(join(REPO, 'node_modules'), join(old, 'node_modules'));
      execFileSync(
        process.execPath,
        [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(old, 'tsconfig.build.json')],
        {
          stdio: 'pipe',
        },
      );
      await current.startMaster();
      // the earlier master, driven by this checkout's CLIs
      await earlier.writeMasterConfig();
      earlier.master = new Daemon(
        'earlier master',
        'salt-master',
        ['-c', earlier.confDir],
        undefined,
        oldCli('salt-master'),
      );
      await earlier.master.waitFor('salt-master started', 60_000);
    }, 600_000);

    afterAll(async () => {
      await current.stop();
      await earlier.stop();
      rmSync(work, { recursive: true, force: true });
    });

    async function works(c: Cluster, id: string): Promise<void> {
      let ping: Record<string, unknown> = {};
      for (let i = 0; i < 30 && ping[id] !== true; i++) {
        ping = (await c.saltJson([id, 'test.ping', '-t', '10']).catch(() => ({ data: {} }))).data;
      }
      expect(ping).toEqual({ [id]: true });
      expect((await c.saltJson([id, 'cmd.run', 'echo across-versions'])).data).toEqual({
        [id]: 'across-versions',
      });
      const grains = (await c.saltJson([id, 'grains.items'])).data[id] as Record<string, unknown>;
      expect(grains).toMatchObject({ id, kernel: 'Linux' });
    }

    it("an earlier build's minion works with this master", async () => {
      await current.startMinion('older1', {}, true, oldCli('salt-minion'));
      await works(current, 'older1');
    }, 180_000);

    it("this checkout's minion works with an earlier build's master", async () => {
      await earlier.startMinion('newer1');
      await works(earlier, 'newer1');
    }, 180_000);
  },
);
