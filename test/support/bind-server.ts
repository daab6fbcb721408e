/**
 * A private BIND 9 (`named`, Debian's bind9) for the `ddns` module's and state's tests: run in
 * the foreground as a child of the test on a free loopback port, from a temp dir holding its
 * config, its zones and their journals. Zones:
 *  - `example.test.` and `2.0.192.in-addr.arpa.`: updates only signed with one of two TSIG keys
 *    (`tsalt-md5.`, HMAC-MD5; `tsalt-sha.`, HMAC-SHA256);
 *  - `open.test.`: updates from 127.0.0.1 without a key.
 * Each key is also written as the JSON keyring file Salt's `keyfile` reads, plus one holding the
 * md5 key's name with a wrong secret. No rndc control channel, so nothing listens on port 953.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../kernel/process/ports.js';

const NAMED = '/usr/sbin/named';

export interface BindTestServer {
  port: number;
  dir: string;
  /** JSON keyring files: the md5 key, the sha256 key, and the md5 key's name with a wrong secret. */
  keyfiles: { md5: string; sha256: string; wrong: string };
  /** Records `name type` as the server answers them now (dig +short, one per line). */
  lookup(name: string, type: string): string[];
  stop(): Promise<void>;
}

/** Why the bind9 tests cannot run here, or null when they can. */
export function bindSkipReason(): string | null {
  if (spawnSync(NAMED, ['-v']).status !== 0) return 'named (Debian bind9) is not installed';
  if (spawnSync('dig', ['-v']).status !== 0) return 'dig (Debian bind9-dnsutils) is not installed';
  return null;
}

function zoneFile(origin: string): string {
  return `$TTL 300\n@ IN SOA ns.example.test. admin.example.test. 1 3600 600 86400 300\n@ IN NS ns.example.test.\n${
    origin === 'example.test' ? 'ns IN A 127.0.0.1\nstatic IN A 192.0.2.200\n' : ''
  }`;
}

function config(dir: string, port: number, md5: string, sha: string): string {
  const signed = 'allow-update { key "tsalt-md5."; key "tsalt-sha."; };';
  return `options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  allow-query { any; };
  dnssec-validation no;
};
controls { };
key "tsalt-md5." { algorithm hmac-md5; secret "${md5}"; };
key "tsalt-sha." { algorithm hmac-sha256; secret "${sha}"; };
zone "example.test" { type primary; file "example.test.zone"; ${signed} };
zone "2.0.192.in-addr.arpa" { type primary; file "rev.zone"; ${signed} };
zone "open.test" { type primary; file "open.test.zone"; allow-update { 127.0.0.1; }; };
`;
}

function dig(port: number, name: string, type: string): { ok: boolean; lines: string[] } {
  const r = spawnSync(
    'dig',
    ['@127.0.0.1', '-p', String(port), '+short', '+time=2', '+tries=1', name, type],
    {
      encoding: 'utf8',
    },
  );
  return { ok: r.status === 0, lines: r.stdout.split('\n').filter((l) => l !== '') };
}

/** Starts named and waits (up to 90 s) until it answers for its zones. */
export async function startBindServer(): Promise<BindTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-bind-'));
  const port = await freePort();
  const md5 = randomBytes(16).toString('base64');
  const sha = randomBytes(32).toString('base64');
  writeFileSync(join(dir, 'named.conf'), config(dir, port, md5, sha));
  writeFileSync(join(dir, 'example.test.zone'), zoneFile('example.test'));
  writeFileSync(join(dir, 'open.test.zone'), zoneFile('open.test'));
  writeFileSync(join(dir, 'rev.zone'), zoneFile('rev'));
  const keyfiles = {
    md5: join(dir, 'md5.json'),
    sha256: join(dir, 'sha.json'),
    wrong: join(dir, 'wrong.json'),
  };
  writeFileSync(keyfiles.md5, JSON.stringify({ 'tsalt-md5.': md5 }));
  writeFileSync(keyfiles.sha256, JSON.stringify({ 'tsalt-sha.': sha }));
  writeFileSync(keyfiles.wrong, JSON.stringify({ 'tsalt-md5.': randomBytes(16).toString('base64') }));
  // -g: foreground, log to stderr; -n 1: one worker thread (the machine is shared)
  const child: ChildProcess = spawn(NAMED, ['-g', '-n', '1', '-4', '-c', join(dir, 'named.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  while (!dig(port, 'ns.example.test', 'A').lines.includes('127.0.0.1')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`named did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { port, dir, keyfiles, lookup: (name, type) => dig(port, name, type).lines, stop };
}
