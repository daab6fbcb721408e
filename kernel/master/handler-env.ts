/**
 * Builds what request handlers need inside one request-server worker: the kernel with its
 * plugins, the master keys, the AES and user keys, the key caches and the job cache.
 */
import { readdir, readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { commandFallbacksPlugin } from '../../plugins/command-fallbacks/index.js';
import { fileServerPlugin } from '../../plugins/file-server/index.js';
import { jobCachePlugin } from '../../plugins/job-cache/index.js';
import { pillarPlugin } from '../../plugins/pillar/index.js';
import { runnersPlugin } from '../../plugins/runners/index.js';
import { wheelPlugin } from '../../plugins/wheel/index.js';
import type { ResolvedMasterConfig } from '../config/index.js';
import { createKernel } from '../kernel.js';
import type { KernelPlugin, PluginOption } from '../plugin.js';
import { requestCorePlugin } from './core-commands.js';
import type { HandlerEnv } from './handlers/context.js';
import { masterReturnerLoader, openMasterJobCache } from './job-cache.js';
import { KeyCache } from './key-cache.js';
import { readMasterKeys } from './master-keys.js';
import { readAesKey } from './secrets.js';

/** The built-in plugins every master kernel applies. */
export function masterBuiltins(): KernelPlugin[] {
  return [jobCachePlugin(), fileServerPlugin(), pillarPlugin(), runnersPlugin(), wheelPlugin()];
}

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
  const kernel = await createKernel({
    daemon: 'master',
    config: config as unknown as Readonly<Record<string, unknown>>,
    log,
    builtins: [
      requestCorePlugin(() => {
        if (!env) throw new Error('a request was handled before its handler env was ready');
        return env;
      }),
      ...masterBuiltins(),
    ],
    plugins: config.plugins as readonly PluginOption[],
    fallbacks: [commandFallbacksPlugin()],
  });
  const keys = await readMasterKeys(config.pki_dir);
  const returners = masterReturnerLoader(config, log, (name) => kernel.returners.get(name));
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
