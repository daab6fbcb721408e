/**
 * The `ansible` execution module and states against real Ansible (Debian's ansible-core) on
 * localhost, through a real masterless `salt-call --local`: ad hoc module calls, an inventory
 * read back, playbooks discovered in and run from a temp tree. ansible-core has no `json`
 * stdout callback (it lives in the ansible.posix collection), so the playbook folder brings one
 * (test/fixtures/ansible/callbacks/json.py) through its own ansible.cfg, as a user's would.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { type LocalCall, localCaller } from '../support/local-call.js';

const T = 300_000;
const haveAnsible = !!which('ansible') && !!which('ansible-playbook') && !!which('ansible-doc');

describe.skipIf(!haveAnsible)('ansible module and states (real ansible-core on localhost)', () => {
  let root: string;
  let pb: string;
  let out: string;
  let call: LocalCall;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'tsalt-ansible-it-'));
    pb = join(root, 'pb');
    out = join(root, 'out.txt');
    mkdirSync(join(pb, 'sub'), { recursive: true });
    mkdirSync(join(pb, 'callbacks'));
    mkdirSync(join(root, 'srv'));
    copyFileSync(join(__dirname, '../fixtures/ansible/callbacks/json.py'), join(pb, 'callbacks/json.py'));
    writeFileSync(join(pb, 'ansible.cfg'), '[defaults]\ncallback_plugins = ./callbacks\n');
    writeFileSync(
      join(pb, 'hosts'),
      '[local]\nlocalhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n',
    );
    writeFileSync(
      join(pb, 'ping.yml'),
      '- name: ping play\n  hosts: all\n  gather_facts: false\n  tasks:\n    - name: ping it\n      ansible.builtin.ping:\n',
    );
    writeFileSync(
      join(pb, 'sub', 'site.yml'),
      `- name: copy play\n  hosts: all\n  gather_facts: false\n  tasks:\n    - name: write it\n      ansible.builtin.copy:\n        content: "hello\\n"\n        dest: ${out}\n`,
    );
    const kw = `    - rundir: ${pb}\n    - ansible_kwargs:\n        inventory: ${pb}/hosts\n`;
    writeFileSync(
      join(root, 'srv', 'copy.sls'),
      `copy it:\n  ansible.playbooks:\n    - name: sub/site.yml\n${kw}`,
    );
    writeFileSync(
      join(root, 'srv', 'missing.sls'),
      `run missing:\n  ansible.playbooks:\n    - name: nope.yml\n${kw}`,
    );
    writeFileSync(
      join(root, 'srv', 'calls.sls'),
      'ping them:\n  ansible.call:\n    - ping:\n      - data: hello\n    - nosuchmod:\n      - x: 1\n',
    );
    call = localCaller(root, 'ansible-it');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('calls Ansible modules ad hoc, by call and by their own names', { timeout: T }, async () => {
    expect((await call('ansible.call', 'ping', 'data=foobar')).local).toEqual({ ping: 'foobar' });
    expect((await call('ansible.builtin.ping', 'data=x')).local).toEqual({ ping: 'x' });
    const bad = (await call('ansible.call', 'nosuchmodule')).local as Record<string, unknown>;
    expect(bad.Exitcode).toBe(2);
    expect(String(bad['Given JSON output'])).toContain('localhost | FAILED!');
    expect((await call('ansible.list', '*ping*')).local).toEqual(['builtin.ping', 'ping']);
  });

  it('reads an inventory and discovers playbooks', { timeout: T }, async () => {
    const inv = (await call('ansible.targets', `inventory=${pb}/hosts`)).local as Record<string, unknown>;
    expect(inv.local).toEqual({ hosts: ['localhost'] });
    expect((await call('ansible.targets', `inventory=${pb}/none`)).output).toContain(
      `Inventory file not found: ${pb}/none`,
    );
    expect((await call('ansible.discover_playbooks', `path=${pb}`)).local).toEqual({
      [pb]: {
        'ping.yml': { fullpath: `${pb}/ping.yml`, custom_inventory: `${pb}/hosts` },
        'sub/site.yml': { fullpath: `${pb}/sub/site.yml` },
      },
    });
    expect((await call('ansible.discover_playbooks')).output).toContain(
      "You have to specify either 'path' or 'locations' arguments",
    );
  });

  it('runs a playbook with the JSON callback and sets the retcode', { timeout: T }, async () => {
    const ok = await call('ansible.playbooks', 'ping.yml', `rundir=${pb}`, `inventory=${pb}/hosts`);
    const doc = ok.local as { stats: Record<string, { ok: number }>; retcode: number; plays: unknown[] };
    expect(doc.stats.localhost?.ok).toBe(1);
    expect(doc.retcode).toBe(0);
    expect(ok.code).toBe(0);
    const missing = await call('ansible.playbooks', 'nope.yml', `rundir=${pb}`, `inventory=${pb}/hosts`);
    expect((missing.local as { retcode: number }).retcode).toBe(1);
    expect((missing.local as { stderr: string }).stderr).toContain(
      'the playbook: nope.yml could not be found',
    );
    expect(missing.code).toBe(1);
  });

  it('runs the playbooks state: check mode with test=True, then changes, then none', {
    timeout: T,
  }, async () => {
    const one = (r: { local: unknown }) =>
      Object.values(r.local as Record<string, Record<string, unknown>>)[0] ?? {};
    const dry = one(await call('state.apply', 'copy', 'test=True'));
    expect(dry.result).toBeNull();
    expect(dry.comment).toBe('Changes will be made from playbook sub/site.yml');
    expect(existsSync(out)).toBe(false);
    const wet = one(await call('state.apply', 'copy'));
    expect(wet.result).toBe(true);
    expect(wet.comment).toBe('Changes were made by playbook sub/site.yml');
    expect(Object.keys((wet.changes as Record<string, Record<string, unknown>>)['copy play'] ?? {})).toEqual([
      'write it',
    ]);
    expect(readFileSync(out, 'utf8')).toBe('hello\n');
    const again = one(await call('state.apply', 'copy'));
    expect(again).toMatchObject({
      result: true,
      changes: {},
      comment: 'No changes to be made from playbook sub/site.yml',
    });
    const missing = one(await call('state.apply', 'missing'));
    expect(missing.result).toBe(false);
    expect(String(missing.comment)).toContain('could not be found');
  });

  it('runs the call state: each module a change, a missing one a failure', { timeout: T }, async () => {
    const r = Object.values(
      (await call('state.apply', 'calls')).local as Record<string, Record<string, unknown>>,
    )[0];
    expect(r?.result).toBe(false);
    expect(r?.changes).toEqual({
      ping: { ping: 'hello' },
      nosuchmod: 'Module "nosuchmod" failed. Error message: (KeyError) \'ansible.nosuchmod\'',
    });
  });
});
