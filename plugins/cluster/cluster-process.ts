/**
 * The master's `cluster` process (Salt 3007's cluster pool): listens on `cluster_pool_port` for
 * the peers' signed messages and keeps a link to each peer. A job published here is sent to every
 * peer, whose cluster process hands it to its own publisher, so it reaches the minions connected
 * there; their returns and other job events (`salt/job/<jid>/ret/<id>`, `salt/job/<jid>/prog/...`
 * on the peer's bus) come back here and are fired on this master's bus for the client that published. With `cluster_backend: postgres` it also
 * shares the minion keys (shared-state.ts).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { DaemonProcessContext, ResolvedMasterConfig } from '../../kernel/index.js';
import {
  bindHost,
  connectHost,
  KeyManager,
  publishPullPath,
  ZmtpPuller,
  ZmtpPusher,
} from '../../kernel/services.js';
import { isJid, packIpc, unpackIpc } from '../../kernel/util.js';
import { loadClusterKey } from './cluster-key.js';
import { CLUSTER_ERR_DUPLICATE_ID } from './errors.js';
import { clusterOptions } from './options.js';
import { otherPeers, ownAddresses, type PeerAddress, parsePeer, peerSources } from './peer-address.js';
import { encodePeerFrame, FrameVerifier, type PeerMessage } from './peer-frame.js';
import { PeerLink } from './peer-link.js';
import { PeerServer } from './peer-server.js';
import { clusterPullPath } from './publish-handoff.js';
import { SharedState } from './shared-state.js';

/** How long a job published by a peer has its returns sent back to it. */
const FOREIGN_JOB_MS = 60 * 60 * 1000;
/** A job's events: its returns (`ret/<id>`) and the rest (`prog/<id>/<n>`, ...) alike. */
const JOB_TAG = /^salt\/job\/(\d{20})\//;

function isWildcard(iface: string): boolean {
  return ['0.0.0.0', '::', '[::]', ''].includes(iface);
}

export async function startCluster(ctx: DaemonProcessContext): Promise<() => Promise<void>> {
  const config = ctx.config as unknown as ResolvedMasterConfig;
  const own = clusterOptions.read(config);
  const log = ctx.log;
  const cluster = own.cluster_id ?? '';
  const masterId = config.id ?? `${hostname()}_master`;
  const port = own.cluster_pool_port;
  const key = await loadClusterKey(own.cluster_pki_dir ?? join(config.pki_dir, 'cluster'));
  const selfHost = connectHost(config.interface);
  const address = `${selfHost}:${port}`;
  // a peer list may name this master too (one list for every master's config)
  const self = isWildcard(config.interface)
    ? ownAddresses(config.interface)
    : new Set([bindHost(config.interface)]);
  const peers = await otherPeers(
    own.cluster_peers.map((entry) => parsePeer(entry, port)),
    self,
    port,
  );
  const sources = await peerSources(peers);
  const windowMs = own.cluster_peer_timeout * 1000;
  // the masters of a cluster share one key pair, or a failover minion refuses the next master
  const masterPub = await readFile(join(config.pki_dir, 'master.pub'), 'utf8').catch(() => '');
  const masterKey = createHash('sha256').update(masterPub.trim()).digest('hex');
  const frame = (kind: PeerMessage['kind'], body: Record<string, unknown>): Buffer =>
    encodePeerFrame(key, { cluster, from: masterId, kind, body });

  const links = new Map<PeerAddress, PeerLink>();
  for (const peer of peers) {
    links.set(
      peer,
      new PeerLink({
        peer,
        localAddress: isWildcard(config.interface) ? undefined : bindHost(config.interface),
        log,
        maxAgeMs: windowMs,
        greeting: () => frame('hello', { address, master_key: masterKey }),
      }),
    );
  }

  // jobs published by a peer, run here for it: jid → that peer, while their returns may come
  const foreign = new Map<string, { peer: PeerAddress; at: number }>();
  const prune = setInterval(() => {
    const old = Date.now() - FOREIGN_JOB_MS;
    for (const [jid, f] of foreign) if (f.at < old) foreign.delete(jid);
  }, 60_000);

  const publisher = new ZmtpPusher({ path: publishPullPath(config.sock_dir), reconnectMaxMs: 2000 });
  const server = new PeerServer({
    host: bindHost(config.interface),
    port,
    sources,
    verifier: new FrameVerifier(key, cluster, windowMs),
    log,
    onMessage(msg, peer) {
      if (msg.kind === 'hello') {
        if (msg.from === masterId) {
          const err = new CLUSTER_ERR_DUPLICATE_ID(masterId, String(msg.body.address ?? peer.entry));
          log.error({ code: err.code }, err.message);
        } else {
          log.info({ peer: msg.from, address: msg.body.address }, 'cluster peer connected');
          if (msg.body.master_key !== masterKey)
            log.warn(
              { peer: msg.from },
              `cluster peer ${msg.from} has another master key pair: minions failing over between them will refuse it; copy master.pem and master.pub to every master`,
            );
        }
      } else if (msg.kind === 'publish') {
        const load = msg.body.load as Record<string, unknown> | undefined;
        if (!load || typeof load.jid !== 'string' || !isJid(load.jid)) {
          log.warn({ peer: msg.from }, 'cluster: a publish without a valid jid dropped');
          return;
        }
        foreign.set(load.jid, { peer, at: Date.now() });
        publisher.send(packIpc(load));
        log.debug({ jid: load.jid, peer: msg.from }, 'cluster: published for a peer');
      } else if (msg.kind === 'event') {
        const { tag, data } = msg.body as { tag?: unknown; data?: unknown };
        if (typeof tag !== 'string' || typeof data !== 'object' || data === null) return;
        void ctx
          .fire(tag, data as Record<string, unknown>)
          .catch((err: unknown) =>
            log.warn({ err: (err as Error).message, tag }, 'cluster: a peer event was not fired'),
          );
      }
    },
  });
  await server.listen();

  // publishes made here (publish-handoff.ts) → every peer
  const handoff = new ZmtpPuller({
    onMessage(parts) {
      let load: Record<string, unknown>;
      try {
        load = unpackIpc(parts[0]!) as Record<string, unknown>;
      } catch {
        return;
      }
      const f = frame('publish', { load });
      for (const link of links.values()) link.send(f);
    },
  });
  await handoff.bindPath(clusterPullPath(config.sock_dir));

  // the events of peers' jobs (returns, progress) → the peer that published
  const events = ctx.listen(['salt/job/']);
  const forwarding = (async () => {
    for await (const ev of events) {
      const m = JOB_TAG.exec(ev.tag);
      const f = m ? foreign.get(m[1]!) : undefined;
      if (f) links.get(f.peer)?.send(frame('event', { tag: ev.tag, data: ev.data }));
    }
  })().catch((err: unknown) => log.error({ err }, 'cluster: the job event forwarder failed'));

  let keys: SharedState | undefined;
  if (own.cluster_backend === 'postgres') {
    keys = new SharedState({
      config,
      connection: own.cluster_postgres,
      cluster,
      masterId,
      address,
      pkiDir: config.pki_dir,
      cachedir: config.cachedir,
      keys: new KeyManager({
        pkiDir: config.pki_dir,
        cachedir: config.cachedir,
        // the master where the key was deleted rotates the AES key; the new one reaches this one
        // as the cluster's (secret-sync.ts), not as a second rotation of its own
        rotateAesKey: false,
        onEvent: (tag, data) => void ctx.fire(tag, data).catch(() => undefined),
      }),
      intervalMs: own.cluster_sync_interval * 1000,
      log,
      clusterKey: key,
      // the master's parent asks its publisher and request server to read `.aes` again
      onAesAdopted: () => process.send?.({ type: 'aes-adopted' }),
    });
    try {
      await keys.start();
    } catch (err) {
      await keys.stop();
      keys = undefined;
      await Promise.all([server.close(), handoff.close(), publisher.close()]);
      for (const link of links.values()) link.close();
      clearInterval(prune);
      events.close();
      throw err;
    }
  }
  log.info({ cluster, id: masterId, port, peers: peers.map((p) => p.entry) }, 'cluster channel listening');

  return async () => {
    clearInterval(prune);
    events.close();
    await forwarding;
    await keys?.stop();
    for (const link of links.values()) link.close();
    await Promise.all([server.close(), handoff.close(), publisher.close()]);
  };
}
