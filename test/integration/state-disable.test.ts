// state.disable / enable / list_disabled (the state_runs_disabled grain, honoured by state.sls,
// state.apply and state.highstate with Salt's answers), state.show_states and state.clear_cache
// through a real masterless salt-call
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';

describe('state.disable and friends', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-state-disable-'));
  const call = localCaller(root, 'd1');

  beforeAll(() => {
    mkdirSync(join(root, 'srv/web'), { recursive: true });
    mkdirSync(join(root, 'pillar'));
    writeFileSync(join(root, 'srv/top.sls'), "base:\n  '*':\n    - web\n    - web.tls\n    - db\n");
    writeFileSync(join(root, 'srv/web/init.sls'), 'w:\n  test.nop: []\n');
    writeFileSync(join(root, 'srv/web/tls.sls'), 'include:\n  - web\nt:\n  test.nop: []\n');
    writeFileSync(join(root, 'srv/db.sls'), 'd:\n  test.nop: []\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists the SLS files of the highstate in run order', async () => {
    expect((await call('state.show_states')).local).toEqual(['web', 'web.tls', 'db']);
  });

  it('refuses disabled SLS files and the highstate as Salt does, until enabled again', async () => {
    expect((await call('state.disable', 'db,web.*')).local).toEqual({
      res: true,
      msg: 'Info: db state disabled.\nInfo: web.* state disabled.',
    });
    expect((await call('state.list_disabled')).local).toEqual(['db', 'web.*']);
    const db = await call('state.sls', 'db');
    expect(db.code).toBe(1);
    expect(db.local).toEqual([
      'The state file "db" is currently disabled, to re-enable, run state.enable db.',
    ]);
    expect((await call('state.apply', 'web.tls')).local).toEqual([
      'The state file "web.tls" is currently disabled by "web.*", to re-enable, run state.enable web.*.',
    ]);
    // "web" itself does not start with "web.": it runs
    expect((await call('state.sls', 'web')).code).toBe(0);
    await call('state.disable', 'highstate');
    expect(await call('state.highstate')).toMatchObject({
      code: 0,
      local: {
        name: 'Salt highstate run is disabled. To re-enable, run state.enable highstate',
        result: 'False',
        comment: 'Disabled',
      },
    });
    expect((await call('state.enable', 'db,web.*,highstate,nosuch')).local).toEqual({
      res: true,
      msg: 'Info: db state enabled.\nInfo: web.* state enabled.\nInfo: highstate state enabled.\nInfo: nosuch state already enabled.',
    });
    expect((await call('state.sls', 'db')).code).toBe(0);
  });

  it('clear_cache removes the cachedir state caches (*.cache.p) alone', async () => {
    const cachedir = join(root, 'root/var/cache/salt/minion');
    mkdirSync(cachedir, { recursive: true });
    writeFileSync(join(cachedir, 'highstate.cache.p'), '');
    writeFileSync(join(cachedir, 'keep.p'), '');
    expect((await call('state.clear_cache')).local).toEqual(['highstate.cache.p']);
    expect(existsSync(join(cachedir, 'keep.p'))).toBe(true);
  });
});
