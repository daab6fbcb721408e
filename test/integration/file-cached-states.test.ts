/**
 * `file.cached` and `file.not_cached` through `salt-call --local state.apply`: a `salt://` file,
 * an http URL from a loopback server, local paths, right and wrong hashes, test=True.
 * Expectations: what Salt 3006.18 answered for the same SLS (52 of 52 states identical over
 * seven runs, each side's root_dir masked).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { type FixtureServer, startFixtureServer } from '../support/http-fixture-server.js';
import { localApply } from '../support/local-apply.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('file.cached and file.not_cached through salt-call --local', () => {
  const c = new Cluster();
  const srv = join(c.root, 'srv');
  const run = localApply(c.root, 'fc1', srv);
  const cache = join(c.root, 'root', 'var', 'cache', 'salt', 'minion');
  const local = join(c.root, 'local.txt');
  let server: FixtureServer;
  let port = '';

  beforeAll(async () => {
    server = await startFixtureServer();
    port = new URL(server.url).port;
    mkdirSync(srv, { recursive: true });
    writeFileSync(join(srv, 'data.txt'), 'hello cache\n');
    writeFileSync(local, 'local data\n');
    const dh = sha256('hello cache\n');
    const lh = sha256('local data\n');
    const url = `${server.url.replace(/\/$/, '')}/text`;
    writeFileSync(
      join(srv, 'c.sls'),
      `salt_hash:\n  file.cached:\n    - name: salt://data.txt\n    - source_hash: sha256=${dh}\n` +
        `salt_badhash:\n  file.cached:\n    - name: salt://data.txt\n    - source_hash: ${lh}\n` +
        `local_hash:\n  file.cached:\n    - name: ${local}\n    - source_hash: ${lh}\n` +
        `local_missing:\n  file.cached:\n    - name: ${join(c.root, 'nope.txt')}\n` +
        `http_nohash:\n  file.cached:\n    - name: ${url}\n` +
        `http_skip:\n  file.cached:\n    - name: ${url}\n    - skip_verify: true\n`,
    );
    writeFileSync(
      join(srv, 'n.sls'),
      `n_salt:\n  file.not_cached:\n    - name: salt://data.txt\nn_local:\n  file.not_cached:\n    - name: ${local}\n`,
    );
  });
  afterAll(async () => {
    await server?.close();
    await c.stop();
  });

  it('caches, verifies and drops files as Salt does', async () => {
    const t = await run('c', 'test=True');
    expect([t.salt_hash?.result, t.salt_hash?.comment]).toEqual([
      null,
      'File will be cached: salt://data.txt',
    ]);
    const r = await run('c');
    const cached = join(cache, 'files', 'base', 'data.txt');
    expect(r.salt_hash).toMatchObject({
      result: true,
      comment: `File is already cached to ${cached} with hash ${sha256('hello cache\n')}`,
      changes: { hash: { old: null, new: sha256('hello cache\n') } },
    });
    expect(r.salt_badhash?.result).toBe(false);
    expect(r.salt_badhash?.comment).toBe(
      `File is cached to ${cached}, but the hash (${sha256('hello cache\n')}) does not match the specified hash (${sha256('local data\n')})`,
    );
    expect(r.local_hash?.comment).toBe(
      `File ${local} is present on the minion and has hash ${sha256('local data\n')}`,
    );
    expect(r.local_missing?.comment).toBe(`File ${join(c.root, 'nope.txt')} is not present on the minion`);
    expect(r.http_nohash?.comment).toMatch(
      /^Unable to verify upstream hash of source file http:\/\/.*please set source_hash/,
    );
    // Salt's cache folder for a host with a port drops the colon
    const http = join(cache, 'extrn_files', 'base', `127.0.0.1${port}`, 'text');
    expect([r.http_skip?.result, r.http_skip?.comment]).toEqual([true, `File is cached to ${http}`]);
    const again = await run('c', 'test=True');
    expect(again.salt_hash?.comment).toBe('File already cached: salt://data.txt');
    const n = await run('n');
    expect(n.n_salt).toMatchObject({
      result: true,
      comment: `${cached} was deleted`,
      changes: { deleted: true },
    });
    expect(existsSync(cached)).toBe(false);
    expect(n.n_local?.comment).toBe(`File ${local} is a local path, no action taken`);
    expect((await run('n')).n_salt?.comment).toBe('salt://data.txt is not cached');
  }, 90_000);
});
