/**
 * The publisher child (Salt's `PubServerChannel._publish_daemon`): PULL publish loads from the
 * request server on `publish_pull.ipc`, add the serial, encrypt with the master AES key, sign,
 * and send one frame to every subscriber on `publish_port` (PROTOCOL.md §6). The publish socket
 * is tsalt's own ZMTP publisher (kernel/bus/zmtp/pub-server.ts), which minions' libzmq SUB
 * sockets cannot tell from libzmq's XPUB, at a seventh of its memory per minion. Beyond Salt,
 * the publishes of the last `publish_replay_seconds` are replayed to minions that (re)connect
 * (master/publish-replay.ts, master/replaying-publisher.ts).
 */
import { chmod } from 'node:fs/promises';
import { bindHost, publishPullPath, tcpAddress } from '../../kernel/bus/address.js';
import { Inbox } from '../../kernel/bus/inbox.js';
import { PresenceTracker } from '../../kernel/bus/presence.js';
import { unpinned } from '../../kernel/bus/zmtp/frame.js';
import { ZmtpPuller } from '../../kernel/bus/zmtp/pull-server.js';
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import type { Crypticle } from '../../kernel/crypt/crypticle.js';
import { runChild } from '../../kernel/daemon/child-runtime.js';
import { onParentMessage } from '../../kernel/process/child.js';
import { packIpc, unpackIpc } from '../../kernel/serial/index.js';
import { KeptCrypticle } from '../../minion/kept-crypticle.js';
import { readAesKey } from '../aes-key.js';
import { readMasterKeys } from '../master-keys.js';
import { wrapPublish } from '../publish-envelope.js';
import { ReplayBuffer } from '../publish-replay.js';
import { ReplayFile } from '../publish-replay-file.js';
import { SerialReservation } from '../publish-serial.js';
import { KnownRuns } from '../replay-known-runs.js';
import { masterRunFacts } from '../replay-run-facts.js';
import { ReplayingPublisher } from '../replaying-publisher.js';
import { publishHandOffLimit } from '../request-router.js';
import { keepAliveIdleMs } from '../tcp-keepalive.js';

await runChild<ResolvedMasterConfig>('publisher', async ({ config, log }) => {
  const keys = await readMasterKeys(config.pki_dir);
  const serials = new SerialReservation(config.cachedir);
  const loadKey = async (): Promise<Crypticle> => {
    const aes = await readAesKey(config.cachedir);
    await serials.reset(aes.generation);
    return new KeptCrypticle(aes.key);
  };
  let crypticle = await loadKey();
  const wrap = (load: Record<string, unknown>): Buffer =>
    wrapPublish(load, crypticle, config.sign_pub_messages ? { signWith: keys.privatePem } : {});

  // the publishes of the last publish_replay_seconds, for minions that (re)connect; kept on
  // disk so that a restarted publisher or master still has them (master/publish-replay.ts)
  const replaySeconds = config.publish_replay_seconds;
  const replay = replaySeconds > 0 ? new ReplayBuffer(replaySeconds, wrap) : undefined;
  const replayFile = new ReplayFile(config.cachedir, (err) =>
    log.warn({ err: err.message }, 'the publish replay file could not be written'),
  );
  if (replay) {
    for (const r of await replayFile.read(Date.now() - replaySeconds * 1000))
      replay.add(r.load, r.raw, Buffer.alloc(0), r.t);
    // new serials and frames, of this publisher's key (a previous master's key had its own)
    await replay.reserial(() => serials.next());
    await replayFile.rewrite(replay.records());
    if (replay.size > 0) log.info({ publishes: replay.size }, 'recent publishes kept for replay');
  } else await replayFile.remove();

  const known = new KnownRuns(masterRunFacts(config, log));
  const presence = new PresenceTracker(config.cachedir);
  await presence.flush();
  // it reports subscriptions as an XPUB does: minions' presence topics (kernel/bus/presence.ts)
  const pub = new ReplayingPublisher({
    replayFor: (id, last, after) => replay?.pendingFor(id, last, after) ?? [],
    // not what the job cache says the minion returned already (master/replay-known-runs.ts)
    filter: (conn, items) => known.filter(conn, items, presence.present),
    seq: () => replay?.seq ?? 0,
    onReplay: (id, frames) => {
      if (frames > 0) log.info({ id, publishes: frames }, 'recent publishes replayed to a connecting minion');
    },
    sendHighWaterMark: config.pub_hwm,
    backlog: config.zmq_backlog,
    keepAliveIdleMs: keepAliveIdleMs(config),
    onSubscription: (msg) => presence.onSubscription(msg),
    onPeerError: (err) => log.debug({ err: err.message }, 'publish peer disconnected'),
  });
  // publish loads from the request server, taken one at a time in order (each waits for its
  // serial); a backlog past this many is dropped and logged, as a full libzmq queue would drop
  const loads = new Inbox<Buffer[]>(100_000);
  const pull = new ZmtpPuller({
    // a publish load is at most a request's size: the request server's own cap
    maxFrameBytes: publishHandOffLimit(config),
    // a queued part must not pin the socket read it was sliced from
    onMessage: (parts) => loads.push(parts.map(unpinned)),
    onPeerError: (err) =>
      (err as { code?: string }).code === 'SALT_ERR_BUS_ZMTP'
        ? log.warn({ err: err.message }, 'publish hand-off: a peer broke the protocol and was disconnected')
        : log.debug({ err: err.message }, 'publish hand-off peer disconnected'),
  });
  await pub.bind(bindHost(config.interface), config.publish_port);
  const pullPath = publishPullPath(config.sock_dir);
  await pull.bindPath(pullPath);
  await chmod(pullPath, 0o600).catch(() => undefined);
  let rotating: Promise<void> | undefined;
  onParentMessage((msg) => {
    if ((msg as { type?: string }).type === 'aes-rotated') {
      rotating = loadKey().then(
        async (next) => {
          crypticle = next;
          if (replay) {
            await replay.reserial(() => serials.next());
            void replayFile.rewrite(replay.records());
          }
          log.info('AES key rotated');
        },
        (err) => log.error({ err }, 'could not load the rotated AES key'),
      );
    }
  });

  let running = true;
  const loop = (async () => {
    try {
      let dropped = 0;
      for (let parts = await loads.take(); parts; parts = await loads.take()) {
        if (loads.dropped > dropped) {
          log.error({ dropped: loads.dropped - dropped }, 'publish loads dropped: the publisher fell behind');
          dropped = loads.dropped;
        }
        const [frame] = parts;
        if (!frame) continue;
        if (rotating) {
          await rotating;
          rotating = undefined;
        }
        let load: Record<string, unknown>;
        try {
          load = unpackIpc(frame, { exactFloats: true }) as Record<string, unknown>;
        } catch {
          log.warn('undecodable publish load dropped');
          continue;
        }
        load.serial = await serials.next();
        const envelope = wrap(load);
        if (replay) {
          // kept before it is sent: a minion subscribing meanwhile gets it replayed
          const t = Date.now();
          const record = packIpc({ t, load });
          replay.add(load, record, envelope, t);
          replayFile.append(record);
          if (replayFile.oversized(replay.recordBytes)) void replayFile.rewrite(replay.records());
        }
        const peers = pub.send([envelope]);
        log.debug({ jid: load.jid, fun: load.fun, peers }, 'published');
      }
    } catch (err) {
      if (running) log.error({ err }, 'publisher loop failed');
    }
  })();
  log.info({ address: tcpAddress(config.interface, config.publish_port) }, 'publisher listening');
  return async () => {
    running = false;
    await pull.close();
    loads.close();
    await pub.close();
    presence.close();
    await loop;
    await replayFile.flush();
  };
});
