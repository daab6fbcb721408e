/**
 * The file server without a request server (Salt's `FSChan`): built from a config with the
 * built-in backends, answering loads by their `cmd` in-process. The master's runners use it
 * (`saltutil.sync_*`, `fileserver.*`), and so does a minion with `file_client: local`.
 */
import pino from 'pino';
import type { FileServerBackendDef, FileServerLog } from './backend-kind.js';
import { FileServer } from './fileserver.js';
import { gitfsBackend } from './gitfs.js';
import { masterOpts } from './master-opts.js';
import { fileServerOptions } from './options.js';
import { rootsBackend } from './roots.js';

/** The backends tsalt ships. */
export const BUILTIN_BACKENDS: readonly FileServerBackendDef[] = [rootsBackend, gitfsBackend];

/** A file server over `config`'s options (`file_roots`, `fileserver_backend`, ...). */
export function localFileServer(
  config: Readonly<Record<string, unknown>>,
  log: FileServerLog = pino({ level: 'silent' }),
  backends: readonly FileServerBackendDef[] = BUILTIN_BACKENDS,
): FileServer {
  return new FileServer(fileServerOptions(config), backends, log);
}

/** Sends a load to `fs` as the request server would; `{}` for an unknown `cmd`, as `FSChan`. */
export function fileServerRequest(
  fs: FileServer,
): (load: Readonly<Record<string, unknown>>) => Promise<unknown> {
  return async (load) => {
    switch (load.cmd) {
      case '_file_envs':
        return fs.fileEnvs();
      case '_file_list':
        return fs.fileList(load);
      case '_file_list_emptydirs':
        return fs.fileListEmptyDirs(load);
      case '_dir_list':
        return fs.dirList(load);
      case '_symlink_list':
        return fs.symlinkList(load);
      case '_file_hash':
        return fs.fileHash(load);
      case '_file_hash_and_stat':
        return fs.fileHashAndStat(load);
      case '_file_find':
        return fs.fileFind(load);
      case '_serve_file':
        return fs.serveFile(load);
      case '_master_opts':
        return masterOpts(fs.opts, await fs.fileEnvs(), load);
      default:
        return {};
    }
  };
}
