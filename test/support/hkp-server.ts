/**
 * A throwaway HKP keyserver on 127.0.0.1 for tests: it serves the public keys of a GnuPG home
 * (read once, at start) as keyservers do, `op=index&options=mr` answering the machine-readable
 * index (`info`, `pub` and percent-encoded `uid` lines) and `op=get` the armored keys. A search
 * starting with `0x` matches the end of a fingerprint, any other one part of a user id; no match
 * is a 404. gpg's dirmngr reaches it as `hkp://127.0.0.1:<port>`.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface ServedKey {
  fingerprint: string;
  algo: string;
  length: string;
  created: string;
  expires: string;
  uids: string[];
  armor: string;
}

export interface HkpServer {
  port: number;
  /** `hkp://127.0.0.1:<port>`. */
  url: string;
  /** The `search` value of each request, in order. */
  searches: string[];
  close(): Promise<void>;
}

function servedKeys(home: string): ServedKey[] {
  const gpg = (args: string[]) =>
    execFileSync('gpg', ['--homedir', home, '--batch', ...args], {
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString();
  const keys: ServedKey[] = [];
  let cur: ServedKey | undefined;
  for (const line of gpg(['--with-colons', '--fixed-list-mode', '--list-keys']).split('\n')) {
    const f = line.split(':');
    if (f[0] === 'pub') {
      cur = {
        fingerprint: '',
        algo: f[3] ?? '',
        length: f[2] ?? '',
        created: f[5] ?? '',
        expires: f[6] ?? '',
        uids: [],
        armor: '',
      };
      keys.push(cur);
    } else if (f[0] === 'fpr' && cur && !cur.fingerprint) cur.fingerprint = f[9] ?? '';
    else if (f[0] === 'uid' && cur) cur.uids.push(f[9] ?? '');
  }
  for (const k of keys) k.armor = gpg(['--armor', '--export', k.fingerprint]);
  return keys;
}

function matches(k: ServedKey, search: string): boolean {
  const s = search.toLowerCase();
  if (s.startsWith('0x')) return k.fingerprint.toLowerCase().endsWith(s.slice(2));
  return k.uids.some((u) => u.toLowerCase().includes(s));
}

/** Starts a keyserver serving the public keys of GnuPG home `home`. */
export async function startHkpServer(home: string): Promise<HkpServer> {
  const keys = servedKeys(home);
  const searches: string[] = [];
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const search = u.searchParams.get('search') ?? '';
    searches.push(search);
    const found = keys.filter((k) => matches(k, search));
    if (u.pathname !== '/pks/lookup' || !found.length) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('No keys found');
      return;
    }
    if (u.searchParams.get('op') === 'index') {
      let out = `info:1:${found.length}\n`;
      for (const k of found) {
        out += `pub:${k.fingerprint}:${k.algo}:${k.length}:${k.created}:${k.expires}:\n`;
        for (const uid of k.uids) out += `uid:${encodeURIComponent(uid)}:${k.created}::\n`;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(out);
    } else if (u.searchParams.get('op') === 'get') {
      res.writeHead(200, { 'content-type': 'application/pgp-keys' });
      res.end(found.map((k) => k.armor).join(''));
    } else {
      res.writeHead(501);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `hkp://127.0.0.1:${port}`,
    searches,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
