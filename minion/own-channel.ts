/**
 * A job process's own channel to the master, for the jobs it still runs once the minion's main
 * process has left them (a restart or an upgrade: `KillMode=process` under systemd, the
 * sysvinit script's stop): it signs in with the minion's key, as the main process does, and
 * sends those jobs' returns and their functions' master requests itself. Salt's job processes
 * likewise return through a channel of their own. Opened on first use; it gives up after
 * `giveUpMs` when no master answers, so an orphaned job process always ends.
 *
 * What such a job asks of the minion it is served here too: a fresh pillar compile and a pillar
 * refresh go to the master over this channel (the refreshed pillar is this process's from then
 * on), and the schedule module's calls go to the minion running on this host now (the one that
 * replaced the stopped one) over its own event bus, as `salt-call` reaches it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import type { JobOutcome } from './execute-job.js';
import type { JobData } from './job-protocol.js';
import type { MasterConnection } from './master-connection.js';
import type { MasterLink } from './master-link.js';

// What a left job needs is loaded when it is left one (every job process imports this file;
// few ever use it): the master connection, its crypto and the minion's event bus client.
const heavy = () =>
  Promise.all([
    import('../kernel/bus/address.js'),
    import('./master-address.js'),
    import('./master-connection.js'),
  ]);

export interface OwnChannel {
  /** Sends an aes load to the master (signing in first, once). */
  request(load: Record<string, unknown>): Promise<unknown>;
  /** Sends a job's return, as the main process would have. */
  sendReturn(job: JobData, outcome: JobOutcome): Promise<void>;
  /** The master link functions use from now on (no pool to recycle here). */
  readonly link: MasterLink;
  close(): void;
}

/** This job process's own state the channel serves pillar requests from and into. */
export interface OwnPillar {
  /** The grains a pillar compile is made for (Salt sends them with `_pillar`). */
  grains(): unknown;
  /** Takes a refreshed pillar (Salt's `__pillar__` after `saltutil.refresh_pillar`). */
  replace(pillar: Record<string, unknown>): void;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function openOwnChannel(
  config: ResolvedMinionConfig,
  id: string,
  log: Logger,
  pillar: OwnPillar,
  giveUpMs = 120_000,
): OwnChannel {
  // the minion's key, read now while it surely exists (never made anew here: a minion whose
  // folders are gone has no business signing in again)
  const pem = join(config.pki_dir, 'minion.pem');
  const keys = existsSync(pem)
    ? import('../kernel/crypt/keys.js').then((k) => k.loadOrCreateKeyPair(config.pki_dir, 'minion', 2048))
    : Promise.reject(new Error(`the minion key ${pem} is gone`));
  keys.catch(() => undefined);
  let ready: Promise<MasterConnection> | undefined;
  let conn: MasterConnection | undefined;
  const connect = (): Promise<MasterConnection> => {
    ready ??= (async () => {
      const [{ tcpAddress }, { primaryMaster }, { MasterConnection }] = await heavy();
      const uri = tcpAddress(primaryMaster(config.master), config.master_port);
      conn = new MasterConnection(config, id, await keys, uri, log);
      const timer = setTimeout(() => conn?.close(), giveUpMs);
      timer.unref();
      try {
        await conn.signIn();
      } finally {
        clearTimeout(timer);
      }
      log.info({ master: uri }, 'job process signed in on its own channel');
      return conn;
    })();
    return ready;
  };
  const request = async (load: Record<string, unknown>): Promise<unknown> => (await connect()).send(load);
  return {
    request,
    async sendReturn(job, outcome) {
      const master = await connect();
      const { buildReturnLoad } = await import('./return-load.js');
      await master.send(buildReturnLoad(id, job, outcome), {
        timeoutMs: config.return_retry_timer_max * 1000,
      });
    },
    link: {
      inProcess: false,
      request,
      recycle: () => undefined,
      async compilePillar(ask) {
        const compiled = await (await connect()).pillar(pillar.grains(), ask);
        return isMap(compiled) ? compiled : {};
      },
      async refreshPillar() {
        const fresh = await (await connect()).pillar(pillar.grains());
        pillar.replace(isMap(fresh) ? fresh : {});
      },
      manageSchedule: async (call) =>
        (await import('./local-bus.js')).askRunningMinion(config.sock_dir, id, call),
    },
    close: () => conn?.close(),
  };
}
