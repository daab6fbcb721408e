/**
 * Tells systemd a daemon is ready (`Type=notify` units): when systemd started the process it
 * set `NOTIFY_SOCKET`, and `systemd-notify --ready` sends `READY=1` there for this pid (the unit
 * needs `NotifyAccess=all`, as Salt's own units have, since the sender is a child). Node cannot
 * send on a datagram socket of the unix family itself. Elsewhere this does nothing.
 */
import { execFile } from 'node:child_process';
import type { Logger } from 'pino';

/** Sends READY=1 (and a status line) when running under systemd; resolves either way. */
export function notifyReady(
  status: string,
  log?: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (!env.NOTIFY_SOCKET) return Promise.resolve();
  return new Promise((resolve) => {
    execFile(
      'systemd-notify',
      ['--ready', `--pid=${process.pid}`, `--status=${status}`],
      { env, timeout: 10_000 },
      (err) => {
        if (err) log?.warn({ err: err.message }, 'could not tell systemd the daemon is ready');
        resolve();
      },
    );
  });
}
