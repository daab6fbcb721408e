/**
 * Where the minion's file client sends its loads (Salt's `get_file_client`): the master's file
 * server through the minion's master link, or with `file_client: local` an in-process file
 * server over the minion's own `file_roots` (Salt's `FSClient`/`FSChan`), so `salt-call
 * --local` is masterless with the same backend code.
 */

import { type MasterLink, SALT_ERR_EXEC_SYNC } from '../kernel/index.js';
import { fileServerRequest, localFileServer } from '../plugins/file-server/index.js';

/** Sends one file-server load and resolves with the reply. */
export type FileRequest = (load: Record<string, unknown>) => Promise<unknown>;

export interface FileChannelContext {
  readonly opts: Readonly<Record<string, unknown>>;
  readonly id: string;
  /** The minion's link to its master (`ExecContext.master`); absent under `salt-call --local`. */
  readonly master?: MasterLink;
}

function toMaster(ctx: FileChannelContext): FileRequest {
  return (load) => {
    if (!ctx.master) throw new SALT_ERR_EXEC_SYNC(`minion ${ctx.id} has no connection to a master here`);
    return ctx.master.request(load);
  };
}

/** The channel of this minion: local with `file_client: local`, else its master. */
export function fileChannel(ctx: FileChannelContext): FileRequest {
  if (ctx.opts.file_client === 'local') {
    const fs = localFileServer(ctx.opts);
    const serve = fileServerRequest(fs);
    // no master keeps gitfs fetched: remotes never fetched are fetched before the first answer
    let ready: Promise<void> | undefined;
    return async (load) => {
      ready ??= fs.fetchNew();
      await ready;
      return serve(load);
    };
  }
  return toMaster(ctx);
}

/** The master, whatever `file_client` says: `cp.push` always sends to the master. */
export function masterChannel(ctx: FileChannelContext): FileRequest {
  return toMaster(ctx);
}
