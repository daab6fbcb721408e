/**
 * A private OpenLDAP server for the LDAP modules' tests: `slapd` with a temp `slapd.conf` and a
 * temp mdb database (suffix `dc=example,dc=com`, root DN `cn=admin,dc=example,dc=com`) on a
 * free loopback port and its own `ldapi` socket, seeded with a few entries; stopped and removed
 * by `destroy()`, killed if the test process exits first. No system slapd is used. Debian's
 * `slapd` and `ldap-utils` packages provide the programs (`.ci/run` installs them).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort, systemBin } from './_test-server-tools.js';

export interface SlapdTestServer {
  readonly url: string;
  readonly ldapiUrl: string;
  readonly adminDn: string;
  readonly password: string;
  /** Runs an ldap-utils program (ldapsearch, ldapadd, ...) bound as the admin; its stdout. */
  tool(program: string, args: string[], input?: string): string;
  /** Puts the seed entries back as they were. */
  reset(): void;
  destroy(): Promise<void>;
}

const MISSING =
  "is not installed. The LDAP modules' tests need Debian's slapd and ldap-utils packages (.ci/run installs them).";

const bin = (name: string): string => systemBin(name, MISSING);

export const SEED = `dn: dc=example,dc=com
objectClass: dcObject
objectClass: organization
o: Example
dc: example

dn: ou=people,dc=example,dc=com
objectClass: organizationalUnit
ou: people

dn: uid=alice,ou=people,dc=example,dc=com
objectClass: inetOrgPerson
uid: alice
cn: Alice Liddell
sn: Liddell
mail: alice@example.com
mail: al@example.com
`;

const live = new Set<string>();
const pids = new Map<string, () => number | undefined>();
process.once('exit', () => {
  for (const dir of live) {
    const p = pids.get(dir)?.();
    try {
      if (p !== undefined) process.kill(p, 'SIGKILL');
    } catch {}
  }
});

/** Starts a throwaway slapd; the caller must `destroy()` it (an afterAll). */
export async function startSlapd(): Promise<SlapdTestServer> {
  const slapd = bin('slapd');
  bin('ldapadd');
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-slapd-'));
  mkdirSync(join(dir, 'db'));
  const adminDn = 'cn=admin,dc=example,dc=com';
  const password = 'Ldap-admin-7c1';
  const conf = join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      ...['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `include /etc/ldap/schema/${s}.schema`),
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `pidfile ${join(dir, 'slapd.pid')}`,
      'database mdb',
      'maxsize 10485760',
      'suffix "dc=example,dc=com"',
      `rootdn "${adminDn}"`,
      `rootpw ${password}`,
      `directory ${join(dir, 'db')}`,
      '',
    ].join('\n'),
  );
  const port = await freeLoopbackPort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapiUrl = `ldapi://${encodeURIComponent(join(dir, 'ldapi'))}`;
  // slapd runs as a daemon (under vitest it did not answer when kept in the foreground with -d);
  // it is stopped by the pid in its pidfile
  const started = spawnSync(slapd, ['-f', conf, '-h', `${url}/ ${ldapiUrl}`], { stdio: 'ignore' });
  const pidFile = join(dir, 'slapd.pid');
  const pid = (): number | undefined => {
    try {
      return Number(readFileSync(pidFile, 'utf8').trim()) || undefined;
    } catch {
      return undefined;
    }
  };
  const alive = (p: number): boolean => {
    try {
      process.kill(p, 0);
      return true;
    } catch {
      return false;
    }
  };
  const destroy = async () => {
    const p = pid();
    if (p !== undefined && alive(p)) {
      process.kill(p, 'SIGTERM');
      for (let i = 0; i < 150 && alive(p); i++) await new Promise((r) => setTimeout(r, 100));
      if (alive(p)) process.kill(p, 'SIGKILL');
    }
    live.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  };
  live.add(dir);
  pids.set(dir, pid);
  const tool = (program: string, args: string[], input?: string): string => {
    const r = spawnSync(bin(program), ['-x', '-H', url, '-D', adminDn, '-y', join(dir, 'pw'), ...args], {
      encoding: 'utf8',
      input,
    });
    if (r.status !== 0) throw new Error(`${program}: ${r.stderr}`);
    return r.stdout;
  };
  writeFileSync(join(dir, 'pw'), password, { mode: 0o600 });
  // `ldapdelete -r` of a base that is not there yet made this slapd stop answering: only once seeded
  let seeded = false;
  const reset = () => {
    if (seeded)
      spawnSync(bin('ldapdelete'), [
        '-x',
        '-H',
        url,
        '-D',
        adminDn,
        '-y',
        join(dir, 'pw'),
        '-r',
        'dc=example,dc=com',
      ]);
    tool('ldapadd', [], SEED);
    seeded = true;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (started.status !== 0) {
      await destroy();
      throw new Error(`slapd failed to start (status ${started.status})`);
    }
    try {
      reset();
      break;
    } catch {}
    if (Date.now() > deadline) {
      await destroy();
      throw new Error('slapd did not start in 60 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, ldapiUrl, adminDn, password, tool, reset, destroy };
}
