// incron (the system table /etc/incron.d/salt; Debian's incron) and openstack_config (through an
// `openstack-config` that runs Debian's crudini, as openstack-utils' does) with their states,
// through a real masterless salt-call (expected values measured on Salt 3006.18)
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { localCaller } from '../support/local-call.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-incron-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SYS = '/etc/incron.d/salt';
const canIncron = process.getuid?.() === 0 && existsSync('/etc/incron.d') && !existsSync(SYS);

describe.skipIf(!canIncron)('incron on the system table', () => {
  const call = localCaller(join(root, 'i'), 'incron1');
  const watched = join(root, 'watched');
  afterAll(() => rmSync(SYS, { force: true }));

  it('set_job adds, updates and keeps jobs; list_tab and rm_job read and remove them', async () => {
    writeFileSync(SYS, `${watched} IN_MODIFY echo $@\n# a comment\n`);
    expect((await call('incron.set_job', 'system', watched, 'IN_MODIFY', 'echo $@')).local).toBe('present');
    expect((await call('incron.set_job', 'system', watched, 'in_modify,IN_CREATE', 'echo $@')).local).toBe(
      'updated',
    );
    expect((await call('incron.set_job', 'system', watched, 'IN_DELETE', 'echo $@')).local).toBe('new');
    expect((await call('incron.set_job', 'system', watched, 'IN_BOGUS', 'x')).local).toBe(
      'Invalid mask type: IN_BOGUS',
    );
    expect(readFileSync(SYS, 'utf8')).toBe(
      `# a comment\n${watched} IN_MODIFY,IN_CREATE echo $@\n${watched} IN_DELETE echo $@\n`,
    );
    expect((await call('incron.ls', 'system')).local).toEqual({
      crons: [
        { path: watched, mask: 'IN_MODIFY,IN_CREATE', cmd: 'echo $@' },
        { path: watched, mask: 'IN_DELETE', cmd: 'echo $@' },
      ],
      pre: ['# a comment'],
    });
    expect((await call('incron.rm_job', 'system', watched, 'IN_DELETE', 'echo $@')).local).toBe('removed');
    expect((await call('incron.rm', 'system', watched, 'IN_DELETE', 'echo $@')).local).toBe('absent');
  });

  it('incron.present and incron.absent, in test mode and for real', async () => {
    writeFileSync(SYS, '');
    const job = [`path=${watched}`, 'mask=["IN_MODIFY"]', 'cmd=echo $@', 'user=system'];
    const t = await call('state.single', 'incron.present', 'watch', ...job, 'test=True');
    expect(Object.values(t.local as object)[0]).toMatchObject({
      result: null,
      comment: 'Incron watch is set to be added',
    });
    const p = await call('state.single', 'incron.present', 'watch', ...job);
    expect(Object.values(p.local as object)[0]).toMatchObject({
      result: true,
      comment: "Incron watch added to system's incrontab",
      changes: { system: 'watch' },
    });
    const a = await call('state.single', 'incron.absent', 'watch', ...job);
    expect(Object.values(a.local as object)[0]).toMatchObject({
      result: true,
      comment: "Incron watch removed from system's crontab",
    });
    expect(readFileSync(SYS, 'utf8')).toBe('');
  });
});

const canCrudini = which('crudini') !== null;

describe.skipIf(!canCrudini)('openstack_config over openstack-config (crudini)', () => {
  const call = localCaller(join(root, 'o'), 'osc1');
  const bin = join(root, 'bin');
  const ini = join(root, 'keystone.conf');
  let savedPath: string | undefined;
  beforeAll(() => {
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'openstack-config'), '#!/bin/sh\nexec crudini "$@"\n');
    chmodSync(join(bin, 'openstack-config'), 0o755);
    savedPath = process.env.PATH;
  });
  afterAll(() => {
    process.env.PATH = savedPath;
  });

  it('without the program every function is Salt’s command-not-found error', async () => {
    const r = await call('openstack_config.get', ini, 'sql', 'connection');
    expect(r.output).toContain(
      "Command required for 'openstack_config.get' not found: The 'openstack-config' binary was not found in $PATH.",
    );
  });

  it('get, set and delete a value; a missing one is the program’s error', async () => {
    process.env.PATH = `${bin}${delimiter}${savedPath}`;
    writeFileSync(ini, '[sql]\nconnection = foo\n');
    expect((await call('openstack_config.get', ini, 'sql', 'connection')).local).toBe('foo');
    expect((await call('openstack_config.set', ini, 'sql', 'connection', 'bar baz')).local).toBe('');
    expect(readFileSync(ini, 'utf8')).toBe('[sql]\nconnection = bar baz\n');
    const missing = await call('openstack_config.get', ini, 'sql', 'nope');
    expect(missing.output).toContain('Parameter not found: nope');
    expect((await call('openstack_config.delete', ini, 'sql', 'connection')).local).toBe('');
    expect(readFileSync(ini, 'utf8')).toBe('[sql]\n');
  });

  it('openstack_config.present and absent', async () => {
    process.env.PATH = `${bin}${delimiter}${savedPath}`;
    writeFileSync(ini, '[sql]\nconnection = foo\n');
    const same = await call(
      'state.single',
      'openstack_config.present',
      'connection',
      `filename=${ini}`,
      'section=sql',
      'value=foo',
    );
    expect(Object.values(same.local as object)[0]).toMatchObject({
      result: true,
      comment: 'The value is already set to the correct value',
    });
    const add = await call(
      'state.single',
      'openstack_config.present',
      'p',
      `filename=${ini}`,
      'section=sql',
      'parameter=newp',
      'value=1',
    );
    expect(Object.values(add.local as object)[0]).toMatchObject({
      result: true,
      changes: { Value: 'Updated' },
    });
    expect(readFileSync(ini, 'utf8')).toBe('[sql]\nconnection = foo\nnewp = 1\n');
    const gone = await call(
      'state.single',
      'openstack_config.absent',
      'nope',
      `filename=${ini}`,
      'section=sql',
    );
    expect(Object.values(gone.local as object)[0]).toMatchObject({
      result: true,
      comment: 'The value is already absent',
    });
  });
});
