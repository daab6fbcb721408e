import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { EventFirer, masterEventAddresses } from '../kernel/bus/event-bus.js';
import { EventPublisher } from '../kernel/bus/event-publisher.js';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import type { MasterJobCache } from '../kernel/jobs/master-job-cache.js';
import type { ReturnerDef } from '../kernel/jobs/returner.js';
import { rotateAesKey } from './aes-key.js';
import { dropFilePath, startMaintenance } from './maintenance.js';

const quiet = pino({ level: 'silent' });
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function setup(over: Partial<ResolvedMasterConfig> = {}): ResolvedMasterConfig {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-maint-'));
  dirs.push(root);
  return {
    cachedir: root,
    sock_dir: root,
    keep_jobs_seconds: 3600,
    loop_interval: 1,
    rotate_aes_key: true,
    publish_session: 86400,
    job_cache: true,
    ...over,
  } as ResolvedMasterConfig;
}

/** A job cache that records what maintenance asks of it. */
function recordingCache(): { cache: MasterJobCache; cleaned: number[]; ends: string[] } {
  const cleaned: number[] = [];
  const ends: string[] = [];
  const def = {
    async cleanOldJobs(keep: number) {
      cleaned.push(keep);
      return 0;
    },
    async saveEndState(jid: string, id: string, state: string) {
      ends.push(`${jid}/${id}/${state}`);
    },
  } as unknown as ReturnerDef;
  return { cache: { name: 'rec', def, ctx: {} as MasterJobCache['ctx'] }, cleaned, ends };
}

describe('maintenance in the request server', () => {
  it('asks for a rotation when a key was dropped (rotate_aes_key) and removes the drop file', async () => {
    const config = setup();
    await rotateAesKey(config.cachedir);
    writeFileSync(dropFilePath(config.cachedir), '');
    const { cache, cleaned } = recordingCache();
    let asked = 0;
    const stop = startMaintenance({ config, log: quiet, jobCache: cache, askRotation: () => asked++ });
    try {
      await until('the rotation request', () => asked === 1);
      expect(existsSync(dropFilePath(config.cachedir))).toBe(false);
      expect(cleaned[0]).toBe(3600);
    } finally {
      await stop();
    }
  });

  it('without rotate_aes_key the drop file is removed and no rotation asked; an old key is rotated', async () => {
    const config = setup({ rotate_aes_key: false });
    await rotateAesKey(config.cachedir);
    writeFileSync(dropFilePath(config.cachedir), '');
    let asked = 0;
    const stop = startMaintenance({ config, log: quiet, jobCache: undefined, askRotation: () => asked++ });
    try {
      await until('the drop file to go', () => !existsSync(dropFilePath(config.cachedir)));
      await new Promise((r) => setTimeout(r, 1500));
      expect(asked).toBe(0);
    } finally {
      await stop();
    }
    const expired = setup({ publish_session: 0 });
    await rotateAesKey(expired.cachedir);
    await new Promise((r) => setTimeout(r, 20));
    const stop2 = startMaintenance({
      config: expired,
      log: quiet,
      jobCache: undefined,
      askRotation: () => asked++,
    });
    try {
      await until('the rotation of an expired key', () => asked >= 1);
    } finally {
      await stop2();
    }
  });

  it('stores the end states clients fire on the bus, and ignores malformed ones', async () => {
    const config = setup();
    await rotateAesKey(config.cachedir);
    const bus = new EventPublisher({ log: quiet });
    const addrs = masterEventAddresses(config.sock_dir);
    await bus.bind(addrs);
    const done = bus.run();
    const { cache, ends } = recordingCache();
    const stop = startMaintenance({ config, log: quiet, jobCache: cache, askRotation: () => undefined });
    const firer = new EventFirer(addrs);
    try {
      // the listener subscribes asynchronously: fire until the first is stored
      await until('an end state stored', () => {
        firer.fire('tsalt/job/end/1', { jid: '20261128000000000001', id: 'm1', state: 'no_response' });
        return ends.length > 0;
      });
      firer.fire('tsalt/job/end/2', { jid: '20261128000000000002', id: 'm2', state: 'exploded' });
      firer.fire('tsalt/job/end/3', { jid: '20261128000000000003', id: 'm3', state: 'not_connected' });
      await until('the third end state', () => ends.some((e) => e.startsWith('20261128000000000003')));
      expect(ends.every((e) => !e.includes('exploded'))).toBe(true);
      expect(ends).toContain('20261128000000000003/m3/not_connected');
    } finally {
      await stop();
      await firer.close(0);
      bus.close();
      await done;
    }
  });
});
