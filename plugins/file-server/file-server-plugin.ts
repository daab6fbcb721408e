/**
 * The file server plugin (Salt's `salt/fileserver/` behind `AESFuncs`): declares the
 * `fileserver.backends` kind, registers `roots` and `gitfs`, answers the minion commands
 * `_file_envs`, `_file_list`, `_file_list_emptydirs`, `_dir_list`, `_symlink_list`,
 * `_file_hash`, `_file_hash_and_stat`, `_file_find`, `_serve_file`, `_file_recv`,
 * `_master_opts`, `_master_tops`/`_ext_nodes`, and, when a backend other than `roots` is on,
 * runs Salt's `FileServerUpdate` process, which updates the backends every
 * `gitfs_update_interval` seconds (a gitfs remote with its own `update_interval` on that). Reads are small and asynchronous, so the commands run on
 * the request server's router thread.
 */
import { defineCommand, defineDaemonProcess, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import './backend-kind.js';
import { fileRecv } from './file-recv.js';
import { FileServer } from './fileserver.js';
import { gitfsBackend } from './gitfs.js';
import { parseRemotes } from './gitfs-remotes.js';
import { masterOpts } from './master-opts.js';
import { fileServerOptions } from './options.js';
import { rootsBackend } from './roots.js';
import { runBucket, updateBuckets } from './update-buckets.js';

/** How long the update process waits for its first update before the master counts it up. */
const FIRST_UPDATE_WAIT_MS = 15_000;

export function fileServerPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:file-server',
    daemons: ['master'],
    apply(api) {
      api.kinds.register('fileserver.backends', rootsBackend);
      api.kinds.register('fileserver.backends', gitfsBackend);
      const opts = fileServerOptions(api.config);
      // a malformed gitfs_remotes entry stops the master at start, not at the first request
      if (opts.fileserver_backend.some((b) => b === 'gitfs' || b === 'git')) parseRemotes(opts);
      let server: FileServer | undefined;
      // built on first use: plugins applied after this one may still register backends
      const fs = (): FileServer => {
        server ??= new FileServer(opts, api.kinds.all('fileserver.backends'), api.log);
        return server;
      };
      const light = { enc: 'aes', lane: 'light' } as const;
      const commands: Record<string, (load: Readonly<Record<string, unknown>>) => unknown> = {
        _file_envs: () => fs().fileEnvs(),
        _file_list: (load) => fs().fileList(load),
        _file_list_emptydirs: (load) => fs().fileListEmptyDirs(load),
        _dir_list: (load) => fs().dirList(load),
        _symlink_list: (load) => fs().symlinkList(load),
        _file_hash: (load) => fs().fileHash(load),
        _file_hash_and_stat: (load) => fs().fileHashAndStat(load),
        _file_find: (load) => fs().fileFind(load),
        _serve_file: (load) => fs().serveFile(load),
        _master_opts: async (load) => masterOpts(opts, await fs().fileEnvs(), load),
        // no master_tops are configured: Salt's answer is then `{}`
        _master_tops: () => ({}),
        _ext_nodes: () => ({}),
      };
      for (const [cmd, handle] of Object.entries(commands)) {
        api.commands.register(defineCommand({ cmd, ...light, handle: (load) => handle(load) }));
      }
      api.commands.register(
        defineCommand({
          cmd: '_file_recv',
          ...light,
          handle: (load, ctx) => fileRecv(opts, load, ctx.id, ctx.log),
        }),
      );
      if (opts.fileserver_backend.some((b) => b !== 'roots')) {
        api.processes.register(
          defineDaemonProcess({
            name: 'fileserver-update',
            async start(ctx) {
              const updater = new FileServer(opts, ctx.kinds.all('fileserver.backends'), ctx.log);
              let running: Promise<unknown> = updater.update();
              await Promise.race([running, new Promise((r) => setTimeout(r, FIRST_UPDATE_WAIT_MS).unref())]);
              const buckets = updateBuckets(updater.backends(), opts.gitfs_update_interval);
              const timers = [...buckets].map(([every, bucket]) =>
                setInterval(() => {
                  running = running.then(() => runBucket(bucket, ctx.log));
                }, every * 1000),
              );
              return async () => {
                for (const t of timers) clearInterval(t);
                await running.catch(() => undefined);
              };
            },
          }),
        );
      }
    },
  });
}
