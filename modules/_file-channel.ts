/**
 * Where the minion's file client sends its loads (Salt's `get_file_client`): the master's file
 * server through the minion's master link, or with `file_client: local` an in-process file
 * server over the minion's own `file_roots` (Salt's `FSClient`/`FSChan`), so `salt-call
 * --local` is masterless with the same backend code.
 */

import { masterLink } from '../minion/master-link.js';
import { fileServerRequest, localFileServer } from '../plugins/file-server/index.js';

/** Sends one file-server load and resolves with the reply. */
export type FileRequest = (load: Record<string, unknown>) => Promise<unknown>;

export interface FileChannelContext {
  readonly opts: Readonly<Record<string, unknown>>;
  readonly id: string;
}

/** The channel of this minion: local with `file_client: local`, else its master. */
export function fileChannel(ctx: FileChannelContext): FileRequest {
  if (ctx.opts.file_client === 'local') {
    const serve = fileServerRequest(localFileServer(ctx.opts));
    return (load) => serve(load);
  }
  return (load) => masterLink(ctx.id).request(load);
}

/** The master, whatever `file_client` says: `cp.push` always sends to the master. */
export function masterChannel(ctx: FileChannelContext): FileRequest {
  return (load) => masterLink(ctx.id).request(load);
}
