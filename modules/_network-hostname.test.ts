import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renameInHosts, setSysconfigHostname } from './_network-hostname.js';

describe('the files mod_hostname edits', () => {
  it('puts the new name in place of the old one, tab-joined as Salt (comments too), other lines as they were', () => {
    const hosts = '127.0.0.1 localhost\n# old.example.org  here\n127.0.1.1   old.example.org   old\n\n';
    expect(renameInHosts(hosts, 'old.example.org', 'new.example.org')).toBe(
      '127.0.0.1 localhost\n#\tnew.example.org\there\n127.0.1.1\tnew.example.org\told\n\n',
    );
    expect(renameInHosts(hosts, 'absent', 'x')).toBe(hosts);
  });

  it('sets HOSTNAME= keeping the old quotes', () => {
    expect(setSysconfigHostname('NETWORKING=yes\nHOSTNAME="a.b"\n', 'c.d')).toBe(
      'NETWORKING=yes\nHOSTNAME="c.d"\n',
    );
    expect(setSysconfigHostname('HOSTNAME=a\n', 'c')).toBe('HOSTNAME=c\n');
  });
});

// The real thing, in private UTS and mount namespaces: the host name and the scratch files
// bound over /etc/hosts and /etc/hostname change there only, never on this machine.
const canUnshare = spawnSync('unshare', ['-um', 'true']).status === 0;
const saltCall = resolve(import.meta.dirname, '../bin/salt-call');

describe.skipIf(!canUnshare)('network.mod_hostname and system.set_computer_name (needs unshare -um)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-hostname-'));
  const before = hostname();
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    expect(hostname()).toBe(before);
  });
  writeFileSync(
    join(dir, 'minion'),
    `id: hn1\nfile_client: local\nroot_dir: ${dir}/root\nuser: root\nfile_roots: {base: [${dir}]}\n`,
  );

  /** Runs `salt-call --local fn name` in the namespaces; what it printed, the name there, the files. */
  function run(fn: string, name: string, hideHostnamectl: boolean) {
    writeFileSync(
      join(dir, 'hosts'),
      '127.0.0.1\tlocalhost\n# a comment   kept\n127.0.1.1   box0   box0.example.org\n',
    );
    writeFileSync(join(dir, 'hostname'), 'box0\n');
    writeFileSync(join(dir, 'noexec'), '');
    const hide = hideHostnamectl
      ? `mount --bind ${dir}/noexec "$(command -v hostnamectl)" 2>/dev/null || true;`
      : '';
    const script = `mount --make-rprivate / 2>/dev/null; hostname box0; mount --bind ${dir}/hosts /etc/hosts; mount --bind ${dir}/hostname /etc/hostname; ${hide} "$@" || exit 9; echo "@@$(hostname)"`;
    const out = execFileSync(
      'unshare',
      ['-um', 'sh', '-c', script, 'sh', saltCall, '--local', '-c', dir, fn, name, '--out', 'json'],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    return {
      ret: JSON.parse(out.slice(0, out.indexOf('@@'))).local as unknown,
      name: out.slice(out.indexOf('@@') + 2).trim(),
      hosts: readFileSync(join(dir, 'hosts'), 'utf8'),
      hostnameFile: readFileSync(join(dir, 'hostname'), 'utf8'),
    };
  }

  it('sets the name with the hostname program and renames the fqdn in /etc/hosts', () => {
    const r = run('network.mod_hostname', 'box1.example.org', true);
    expect(r.ret).toBe(true);
    expect(r.name).toBe('box1.example.org');
    expect(r.hosts).toBe('127.0.0.1\tlocalhost\n# a comment   kept\n127.0.1.1\tbox0\tbox1.example.org\n');
    // /etc/hostname is written on Debian-family systems only
    const family = String(
      execFileSync(saltCall, ['--local', '-c', dir, 'grains.get', 'os_family', '--out', 'json'], {
        encoding: 'utf8',
      }),
    );
    if (family.includes('Debian')) expect(r.hostnameFile).toBe('box1.example.org\n');
  });

  it('system.set_computer_name is the same call', () => {
    const r = run('system.set_computer_name', 'box2', true);
    expect(r.ret).toBe(true);
    expect(r.name).toBe('box2');
  });

  it('answers False and changes nothing when hostnamectl refuses (no systemd here) or when it works it is True', () => {
    const r = run('network.mod_hostname', 'box3', false);
    if (r.ret === false) {
      expect(r.name).toBe('box0');
      expect(r.hosts).toContain('127.0.1.1   box0   box0.example.org');
    } else {
      expect(r.name).toBe('box3');
    }
  });
});
