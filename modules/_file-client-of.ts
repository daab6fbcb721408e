/**
 * The file client of a job (Salt's `salt.fileclient.get_file_client(__opts__)`): the minion's
 * cache folder and hash type, files from the master's file server, or from the minion's own
 * `file_roots` with `file_client: local` (the channel decides).
 */
import type { ExecContext } from '../kernel/index.js';
import { fileChannel } from './_file-channel.js';
import { FileClient } from './_file-client.js';
import { httpLimits } from './_http-limits.js';
import { proxyFor } from './_http-proxy.js';

export function fileClientOf(ctx: ExecContext): FileClient {
  return new FileClient({
    cachedir: String(ctx.opts.cachedir ?? '/var/cache/salt/minion'),
    hashType: typeof ctx.opts.hash_type === 'string' ? ctx.opts.hash_type : 'sha256',
    request: fileChannel(ctx),
    http: httpLimits(ctx.opts),
    proxy: (url) => proxyFor(ctx.opts, url),
    log: ctx.log,
  });
}
