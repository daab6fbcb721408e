import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../kernel/log.js';
import localCache from '../../returners/local-cache.js';
import { describeReturnerConformance } from './conformance.js';

describeReturnerConformance('local_cache', async () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-lc-conf-'));
  const ctx = { opts: { cachedir: root, hash_type: 'sha256' }, log: silentLogger(), options: {} };
  return { def: localCache, ctx, teardown: async () => rmSync(root, { recursive: true, force: true }) };
});
