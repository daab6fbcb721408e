import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileServerRequest, localFileServer } from '../plugins/file-server/index.js';
import { FileClient } from './_file-client.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-fc-'));
const root = join(top, 'srv');
mkdirSync(root);
const bytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7) % 251));
writeFileSync(join(root, 'odd.bin'), bytes(100));
writeFileSync(join(root, 'exact.bin'), bytes(70));
writeFileSync(join(root, 'empty.txt'), '');
const serve = fileServerRequest(
  localFileServer({ file_roots: { base: [root] }, file_buffer_size: 7, cachedir: join(top, 'master') }),
);
let served = 0;
const fc = new FileClient({
  cachedir: join(top, 'minion'),
  hashType: 'sha256',
  request: (load) => {
    if (load.cmd === '_serve_file') served += 1;
    return serve(load);
  },
  log: { error: () => undefined, debug: () => undefined },
});

afterAll(() => rmSync(top, { recursive: true, force: true }));

describe('file client downloads', () => {
  it('reassembles a file of many chunks, with chunks asked ahead, plain and gzipped', async () => {
    for (const gzip of [undefined, 6]) {
      for (const name of ['odd.bin', 'exact.bin']) {
        const dest = join(top, `${name}.${gzip ?? 0}`);
        expect(await fc.getFile(`salt://${name}`, dest, false, 'base', gzip)).toBe(dest);
        expect(readFileSync(dest).equals(readFileSync(join(root, name))), `${name} gzip=${gzip}`).toBe(true);
      }
    }
  });

  it('caches under <cachedir>/files/<saltenv>/ and does not fetch an unchanged file again', async () => {
    const cached = join(top, 'minion', 'files', 'base', 'odd.bin');
    expect(await fc.getFile('salt://odd.bin', '', false, 'base')).toBe(cached);
    const before = statSync(cached).mtimeMs;
    served = 0;
    expect(await fc.getFile('salt://odd.bin', '', false, 'base')).toBe(cached);
    expect(served).toBe(0);
    expect(statSync(cached).mtimeMs).toBe(before);
    writeFileSync(join(root, 'odd.bin'), bytes(30));
    expect(await fc.getFile('salt://odd.bin', '', false, 'base')).toBe(cached);
    expect(readFileSync(cached)).toEqual(bytes(30));
  });

  it('writes an empty file, and answers false for what is not served', async () => {
    const dest = join(top, 'empty.out');
    expect(await fc.getFile('salt://empty.txt', dest, false, 'base')).toBe(dest);
    expect(readFileSync(dest, 'utf8')).toBe('');
    expect(await fc.getFile('salt://nope', join(top, 'nope'), false, 'base')).toBe(false);
    expect(await fc.getFile('salt://../srv/odd.bin', join(top, 'x'), false, 'base')).toBe(false);
    await expect(fc.getFile('/etc/passwd', join(top, 'x'), false, 'base')).rejects.toThrow(
      'Unsupported path',
    );
  });
});

describe('http(s) URLs under the http_* limits', () => {
  it('refuses a body over http_max_body and a request over http_request_timeout; reads one under them', async () => {
    const { startFixtureServer } = await import('../test/support/http-fixture-server.js');
    const { createServer } = await import('node:net');
    const srv = await startFixtureServer();
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const { port } = silent.address() as { port: number };
    const limited = new FileClient({
      cachedir: join(top, 'minion-http'),
      hashType: 'sha256',
      request: serve,
      http: { connectTimeoutMs: 20_000, requestTimeoutMs: 1000, maxBody: 10 },
      log: { error: () => undefined, debug: () => undefined },
    });
    try {
      expect(await limited.getUrl(`${srv.url}/text`, null, true, 'base')).toBe('hello\n');
      await expect(limited.getUrl(`${srv.url}/json`, null, true, 'base')).rejects.toThrow(
        'Error: Content-Length too long reading /json',
      );
      // Salt's words for a refused connection: Python's socket error and the URL's path
      const closed = createServer(() => {});
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
      const gone = (closed.address() as { port: number }).port;
      await new Promise((r) => closed.close(r));
      await expect(limited.getUrl(`http://127.0.0.1:${gone}/x/y.txt`, null, true, 'base')).rejects.toThrow(
        'Error: [Errno 111] Connection refused reading /x/y.txt',
      );
      await expect(limited.getUrl(`http://127.0.0.1:${port}/x`, null, true, 'base')).rejects.toThrow(
        'Timeout during request',
      );
    } finally {
      silent.close();
      await srv.close();
    }
  });
});
