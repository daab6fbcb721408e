/**
 * The file server plugin (Salt's `salt/fileserver/`): answers a minion's `_file_envs`,
 * `_file_list`, `_file_hash` and `_serve_file` from `file_roots` (the `roots` backend,
 * roots.ts). Reads are small and asynchronous, so the commands run on the request server's
 * router thread.
 */
import { defineCommand, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { fileEnvs, fileHash, fileList, serveFile } from './roots.js';

export function fileServerPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:file-server',
    daemons: ['master'],
    apply(api) {
      const light = { enc: 'aes', lane: 'light' } as const;
      api.commands.register(
        defineCommand({ cmd: '_file_envs', ...light, handle: (_, ctx) => fileEnvs(ctx.config) }),
      );
      api.commands.register(
        defineCommand({ cmd: '_file_list', ...light, handle: (load, ctx) => fileList(ctx.config, load) }),
      );
      api.commands.register(
        defineCommand({ cmd: '_file_hash', ...light, handle: (load, ctx) => fileHash(ctx.config, load) }),
      );
      api.commands.register(
        defineCommand({ cmd: '_serve_file', ...light, handle: (load, ctx) => serveFile(ctx.config, load) }),
      );
    },
  });
}
