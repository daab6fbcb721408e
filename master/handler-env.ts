/**
 * Builds what request handlers need inside one request-server worker: the kernel with its
 * plugins, the master keys, the AES and user keys, the key caches and the job cache.
 */
import { readdir, readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import { masterReturnerLoader, openMasterJobCache } from '../kernel/jobs/master-job-cache.js';
import { BUILTIN_RETURNERS } from '../plugins/builtin-dirs.js';
import { readAesKey } from './aes-key.js';
import { requestCorePlugin } from './core-commands.js';
import type { HandlerEnv } from './handlers/context.js';
import { KeyCache } from './key-cache.js';
import { createMasterKernel } from './master-kernel.js';
import { readMasterKeys } from './master-keys.js';

async function readUserKeys(cachedir: string): Promise<string[]> {
  const names = (await readdir(cachedir).catch(() => [] as string[])).filter((n) => /^\..+_key$/.test(n));
  const keys = await Promise.all(names.map((n) => readFile(`${cachedir}/${n}`, 'utf8').catch(() => '')));
  return keys.map((k) => k.trim()).filter(Boolean);
}

export interface ReloadableHandlerEnv extends HandlerEnv {
  /** Re-reads the AES key and user keys (after a rotation). */
  reload(): Promise<void>;
}

export async function createHandlerEnv(
  config: ResolvedMasterConfig,
  log: Logger,
): Promise<ReloadableHandlerEnv> {
  let env: ReloadableHandlerEnv | undefined;
  const kernel = await createMasterKernel(config, log, [
    requestCorePlugin(() => {
      if (!env) throw new Error('a request was handled before its handler env was ready');
      return env;
    }),
  ]);
  const keys = await readMasterKeys(config.pki_dir);
  const returners = masterReturnerLoader(config, log, BUILTIN_RETURNERS, (name) =>
    kernel.returners.get(name),
  );
  const jobCache = await openMasterJobCache(config, returners);
  let aes = (await readAesKey(config.cachedir)).key;
  let userKeys = await readUserKeys(config.cachedir);
  env = {
    config,
    kernel,
    keys,
    jobCache,
    returners,
    cache: new KeyCache(config.pki_dir, config.cachedir),
    aesKey: () => aes,
    userKeys: () => userKeys,
    async reload() {
      aes = (await readAesKey(config.cachedir)).key;
      userKeys = await readUserKeys(config.cachedir);
    },
  };
  return env;
}
