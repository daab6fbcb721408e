import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedMasterConfig } from '../../kernel/index.js';
import { CONSOLE_CSP } from './headers.js';
import { consoleRoutes, eauthNames } from './routes.js';

describe('console routes', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tsalt-console-assets-'));
    const assets = join(dir, 'assets');
    mkdirSync(assets);
    writeFileSync(
      join(assets, 'index.html'),
      '<!doctype html><script type="module" src="/console/app.js"></script>',
    );
    writeFileSync(join(assets, 'app.js'), 'console.log(1);'.repeat(100));
    writeFileSync(join(assets, 'notes.md'), 'not served');
    app = Fastify();
    const config = { external_auth: { pam: {}, file: {} } } as unknown as ResolvedMasterConfig;
    const def = consoleRoutes(assets);
    await app.register(async (scoped) =>
      def.routes(scoped, {
        config,
        log: pino({ level: 'silent' }),
        authenticate: async () => ({ user: 'u', eauth: 'pam', groups: [] }),
      }),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page with the CSP and hardening headers', async () => {
    for (const url of ['/console', '/console/']) {
      const r = await app.inject({ url });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
  });

  it('serves the bundle gzipped when asked, and nothing it does not know', async () => {
    const plain = await app.inject({ url: '/console/app.js' });
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gz = await app.inject({ url: '/console/app.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect((await app.inject({ url: '/console/notes.md' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/console/..%2Fassets%2Fapp.js' })).statusCode).toBe(404);
  });

  it('config.json names the eauth back ends in config order', async () => {
    const r = await app.inject({ url: '/console/config.json' });
    expect(r.json()).toEqual({ eauth: ['pam', 'file'] });
    expect(eauthNames(null)).toEqual([]);
    expect(eauthNames(['x'])).toEqual([]);
  });

  it('answers 404 for the page when the front end was not built', async () => {
    const bare = Fastify();
    const def = consoleRoutes(join(dir, 'missing'));
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    await bare.register(async (scoped) =>
      def.routes(scoped, {
        config: {} as ResolvedMasterConfig,
        log,
        authenticate: async () => ({ user: 'u', eauth: 'pam', groups: [] }),
      }),
    );
    expect((await bare.inject({ url: '/console' })).statusCode).toBe(404);
    expect(warnings.join('')).toContain('not built');
    await bare.close();
  });
});
