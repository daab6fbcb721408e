import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

// path options are taken under root_dir, as in Salt: the files live at <root>/etc/salt/...
const autosign = '/etc/salt/autosign.conf';
const autoreject = '/etc/salt/autoreject.conf';

async function keyList(c: Cluster): Promise<Record<string, string[]>> {
  return JSON.parse((await c.saltKey(['-L', '--out', 'json'])).stdout) as Record<string, string[]>;
}

describe('sign-in decisions: autosign_file, autoreject_file', () => {
  const c = new Cluster({
    master: { auto_accept: false, autosign_file: autosign, autoreject_file: autoreject },
  });
  const under = (path: string): string => join(c.root, path);
  beforeAll(async () => {
    mkdirSync(under('/etc/salt'), { recursive: true });
    writeFileSync(under(autosign), '# trusted builders\nbuild-*\n');
    writeFileSync(under(autoreject), 'evil[0-9]+\n');
    await c.startMaster();
  });
  afterAll(() => c.stop());

  it('accepts an id the autosign file lists (a glob)', async () => {
    await c.startMinion('build-1');
    expect((await c.saltJson(['build-1', 'test.ping'])).data).toEqual({ 'build-1': true });
  });

  it('rejects an id the autoreject file lists (a regular expression)', async () => {
    const m = await c.startMinion('evil42', {}, false);
    await m.waitFor(/rejected|SALT_ERR_AUTH_REJECTED/, 20_000);
    expect((await keyList(c)).minions_rejected).toEqual(['evil42']);
  });

  it('pends any other id, and accepts it on its next try once the autosign file lists it', async () => {
    const m = await c.startMinion('web-1', {}, false);
    await m.waitFor('has not accepted this minion key yet', 20_000);
    expect((await keyList(c)).minions_pre).toEqual(['web-1']);
    // an edited file is read again (the master caches it by mtime and size)
    writeFileSync(under(autosign), '# trusted builders\nbuild-*\nweb-*\n');
    await m.waitFor('salt-minion started', 20_000);
    expect((await keyList(c)).minions).toEqual(['build-1', 'web-1']);
  });
});

describe('sign-in decisions: open_mode', () => {
  const c = new Cluster({ master: { auto_accept: false, open_mode: true } });
  beforeAll(async () => {
    await c.startMaster();
  });
  afterAll(() => c.stop());

  it('takes any key and stores it; a new key for the same id replaces the old one', async () => {
    await c.startMinion('open-1');
    expect((await c.saltJson(['open-1', 'test.ping'])).data).toEqual({ 'open-1': true });
    const { readFileSync } = await import('node:fs');
    const stored = (): string => readFileSync(join(c.root, 'etc/salt/pki/master/minions/open-1'), 'utf8');
    const first = stored();
    await c.minions.get('open-1')?.stop();
    // the same id from another root: another key pair
    const again = await c.startMinion('open-1-again', { id: 'open-1' });
    expect(again.alive).toBe(true);
    expect(stored()).not.toBe(first);
    expect((await c.saltJson(['open-1', 'test.ping'])).data).toEqual({ 'open-1': true });
  });
});
