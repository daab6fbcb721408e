/**
 * Salt's `fileserver` runner (`salt/runners/fileserver.py`): the master's file server seen
 * from `salt-run` — its saltenvs, files, directories and symlinks, and its upkeep (`update`
 * fetches gitfs remotes now, `clear_cache` drops what backends keep in the cachedir). Built
 * from the master's config with the built-in backends, in the runner's own process.
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction, type RunnerContext } from '../../../kernel/index.js';
import { type FileServer, localFileServer } from '../../file-server/index.js';

const backendArg = z.union([z.string(), z.array(z.string())]).nullish();

function backends(value: string | readonly string[] | null | undefined): string[] | undefined {
  if (value === null || value === undefined) return undefined;
  return (typeof value === 'string' ? value.split(',') : [...value]).map((s) => s.trim()).filter(Boolean);
}

function server(ctx: RunnerContext): FileServer {
  return localFileServer(ctx.opts, ctx.log);
}

const listArgs = z.object({
  saltenv: z.union([z.string(), z.number()]).default('base'),
  backend: backendArg,
});

export default defineRunner({
  name: 'fileserver',
  doc: 'Directly manage the Salt fileserver plugins.',
  functions: {
    envs: defineRunnerFunction({
      args: z.object({ backend: backendArg, sources: z.boolean().default(false) }),
      doc: 'Return the available fileserver environments.\n\nCLI Example:\n\n    salt-run fileserver.envs\n    salt-run fileserver.envs backend=roots,gitfs',
      run: async (ctx, { backend }) => {
        const fs = server(ctx);
        const only = backends(backend);
        const all = new Set<string>();
        for (const b of fs.backends()) {
          if (only && !only.includes(b.name)) continue;
          for (const e of await b.backend.envs()) all.add(e);
        }
        return [...all].sort();
      },
    }),
    file_list: defineRunnerFunction({
      args: listArgs,
      doc: 'Return a list of files from the salt fileserver.\n\nCLI Example:\n\n    salt-run fileserver.file_list saltenv=prod backend=gitfs',
      run: (ctx, { saltenv, backend }) => server(ctx).fileList({ saltenv, fsbackend: backends(backend) }),
    }),
    dir_list: defineRunnerFunction({
      args: listArgs,
      doc: 'Return a list of directories in the given environment.\n\nCLI Example:\n\n    salt-run fileserver.dir_list saltenv=prod',
      run: (ctx, { saltenv, backend }) => server(ctx).dirList({ saltenv, fsbackend: backends(backend) }),
    }),
    empty_dir_list: defineRunnerFunction({
      args: listArgs,
      doc: 'Return a list of empty directories in the given environment.\n\nCLI Example:\n\n    salt-run fileserver.empty_dir_list',
      run: (ctx, { saltenv, backend }) =>
        server(ctx).fileListEmptyDirs({ saltenv, fsbackend: backends(backend) }),
    }),
    symlink_list: defineRunnerFunction({
      args: listArgs,
      doc: 'Return a list of symlinked files and dirs.\n\nCLI Example:\n\n    salt-run fileserver.symlink_list',
      run: (ctx, { saltenv, backend }) => server(ctx).symlinkList({ saltenv, fsbackend: backends(backend) }),
    }),
    update: defineRunnerFunction({
      args: z.object({ backend: backendArg }),
      varkw: true,
      doc: 'Update the fileserver cache (fetch gitfs remotes). Returns True; a remote that cannot be fetched is logged.\n\nCLI Example:\n\n    salt-run fileserver.update\n    salt-run fileserver.update backend=gitfs',
      run: async (ctx, { backend }) => {
        const result = await server(ctx).update(backends(backend));
        for (const [name, r] of Object.entries(result)) {
          if (r === false) ctx.warn(`fileserver update of ${name} failed; see the master log`);
          else if (r && typeof r === 'object') {
            for (const [remote, ok] of Object.entries(r)) {
              if (ok === false)
                ctx.warn(`${name} remote ${remote} could not be fetched; its last copy is served`);
            }
          }
        }
        return true;
      },
    }),
    clear_cache: defineRunnerFunction({
      args: z.object({ backend: backendArg }),
      doc: 'Clear the fileserver cache from VCS fileserver backends (gitfs).\n\nCLI Example:\n\n    salt-run fileserver.clear_cache backend=gitfs',
      run: async (ctx, { backend }) => {
        const cleared = Object.keys(await server(ctx).clearCache(backends(backend))).map(
          (b) => `The ${b} fileserver cache was successfully cleared`,
        );
        return cleared.length ? { cleared } : 'No cache was cleared';
      },
    }),
    clear_file_list_cache: defineRunnerFunction({
      args: z.object({ saltenv: z.unknown().optional(), backend: backendArg }),
      doc: "Delete the fileserver's file list caches. tsalt keeps no file list cache (lists are read from the backends' files each time), so there is nothing to clear: returns {}.\n\nCLI Example:\n\n    salt-run fileserver.clear_file_list_cache",
      run: () => ({}),
    }),
  },
});
