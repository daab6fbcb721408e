/**
 * packaging/bootstrap/bootstrap-tsalt.sh against a local source (file://) in a throwaway root:
 * it fetches the version `latest` names, installs the self-contained executable and the
 * service file, writes `master:` and `id:`; the minion it installed then signs in to a master
 * from the checkout and runs jobs. Bad input is refused with a clear message.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, Daemon, REPO } from '../../tools/local-cluster.js';
import { sharedExecutable } from '../support/sea-executable.js';

const SCRIPT = join(REPO, 'packaging/bootstrap/bootstrap-tsalt.sh');
const ARCH = process.arch;

describe('bootstrap-tsalt.sh', () => {
  const work = mkdtempSync(join(tmpdir(), 'tsalt-bootstrap-'));
  const source = join(work, 'source');
  const root = join(work, 'root');
  const env = { ...process.env, TSALT_SEA_DIR: join(work, 'unpacked') };
  const c = new Cluster();
  let minion: Daemon | undefined;

  const bootstrap = (args: string[]) =>
    spawnSync('sh', [SCRIPT, ...args], { env, encoding: 'utf8', timeout: 180_000 });

  beforeAll(async () => {
    mkdirSync(source, { recursive: true });
    copyFileSync(sharedExecutable().path, join(source, `tsalt-0.0.7-linux-${ARCH}`));
    writeFileSync(join(source, 'latest'), '0.0.7\n');
    await c.startMaster();
  }, 300_000);

  afterAll(async () => {
    await minion?.stop();
    await c.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('installs the latest executable under a root, with its service file and the minion settings', () => {
    const r = bootstrap([
      '--source',
      `file://${source}`,
      '--root',
      root,
      '--master',
      '127.0.0.1',
      '--id',
      'boot1',
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('installed tsalt 0.0.7 (binary)');
    expect(readlinkSync(join(root, 'usr/bin/salt-minion'))).toBe('../lib/tsalt/tsalt');
    expect(readlinkSync(join(root, 'usr/bin/salt-call'))).toBe('../lib/tsalt/tsalt');
    expect(readFileSync(join(root, 'etc/salt/minion.d/99-bootstrap.conf'), 'utf8')).toBe(
      '# written by bootstrap-tsalt.sh\nmaster: 127.0.0.1\nid: boot1\n',
    );
    expect(readFileSync(join(root, 'etc/systemd/system/salt-minion.service'), 'utf8')).toContain(
      'KillMode=process',
    );
  }, 200_000);

  it('leaves a minion that signs in to the master and runs jobs', async () => {
    // where this throwaway minion keeps its state, and the test master's port
    writeFileSync(
      join(root, 'etc/salt/minion.d/50-test.conf'),
      `root_dir: ${root}\nmaster_port: ${c.retPort}\nacceptance_wait_time: 1\nlog_level: info\n`,
    );
    const prev = process.env.TSALT_SEA_DIR;
    process.env.TSALT_SEA_DIR = env.TSALT_SEA_DIR;
    try {
      minion = new Daemon(
        'minion boot1',
        'salt-minion',
        ['-c', join(root, 'etc/salt')],
        undefined,
        join(root, 'usr/bin/salt-minion'),
      );
    } finally {
      if (prev === undefined) delete process.env.TSALT_SEA_DIR;
      else process.env.TSALT_SEA_DIR = prev;
    }
    await minion.waitFor('salt-minion started', 120_000);
    let ping: Record<string, unknown> = {};
    for (let i = 0; i < 30 && ping.boot1 !== true; i++) {
      ping = (await c.saltJson(['boot1', 'test.ping', '-t', '10']).catch(() => ({ data: {} }))).data;
    }
    expect(ping).toEqual({ boot1: true });
    expect((await c.saltJson(['boot1', 'grains.get', 'id'])).data).toEqual({ boot1: 'boot1' });
  }, 200_000);

  it('refuses a missing source, a missing version, a bad id and an unknown option', () => {
    const noSource = bootstrap(['--root', root]);
    expect(noSource.status).toBe(1);
    expect(noSource.stderr).toContain('bootstrap-tsalt: error: no source');
    const missing = bootstrap(['--source', `file://${source}`, '--root', root, '--version', '9.9.9']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(`cannot read file://${source}/tsalt-9.9.9-linux-${ARCH}`);
    const badId = bootstrap(['--source', `file://${source}`, '--root', root, '--id', 'a b;rm']);
    expect(badId.status).toBe(1);
    expect(badId.stderr).toContain('bad minion id');
    const unknown = bootstrap(['--frobnicate']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('unknown option --frobnicate');
    expect(existsSync(join(root, 'usr/lib/tsalt/tsalt.new'))).toBe(false);
  });
});
