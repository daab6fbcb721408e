/**
 * The request server child (Salt's `ReqServer` + `MWorkerQueue`): a ROUTER on `ret_port`
 * feeding `worker_threads` worker threads. This thread owns every socket: it sends replies,
 * pushes publish loads to the publisher and fires the workers' events on the master bus.
 *
 * It also handles the light requests itself: a signed-in minion's `aes` requests whose command
 * is registered on the `light` lane (`_return`, `_minion_event`, the file server; see
 * kernel/commands/define.ts). Each costs less here than the two thread hand-offs a worker adds
 * to it: at 2,000 swarm minions the request server spent 105-108 instead of 159-200 µs of CPU
 * per return. Sign-ins, `_pillar` and users' commands, which hold RSA work or may run long, go
 * to the workers. When this thread is saturated and the machine has
 * cores to spare, a share of the light requests goes to the workers too (light-lane.ts).
 *
 * Two of Salt's master processes live here too. The master event bus (Salt's `EventPublisher`):
 * the events this process fires (every return's among them) go to subscribers without a socket
 * hop to another process, and the other processes still fire onto it over its unix socket. And
 * maintenance (master/maintenance.ts), which works on the job cache this process holds. Each
 * was a Node process of its own: ~16 and ~20 MiB of the master's PSS.
 */

import { availableParallelism } from 'node:os';
import { publishPullPath, tcpAddress } from '../../kernel/bus/address.js';
import { masterEventAddresses } from '../../kernel/bus/event-bus.js';
import { ZmtpPusher } from '../../kernel/bus/zmtp/push-socket.js';
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { runChild } from '../../kernel/daemon/child-runtime.js';
import { onParentMessage } from '../../kernel/process/child.js';
import { packIpc } from '../../kernel/serial/index.js';
import { bindEventBus } from '../../minion/salt-ipc-pub.js';
import { boundedEventBodies } from '../bounded-events.js';
import { loadMasterConfig, withSdbValues } from '../config-reload.js';
import { createHandlerEnv } from '../handler-env.js';
import { LightLane } from '../light-lane.js';
import { startMaintenance } from '../maintenance.js';
import { peekRequest } from '../request-affinity.js';
import { RequestHandler, type Vouched } from '../request-handler.js';
import { RequestQueue } from '../request-queue.js';
import { openRequestRouter } from '../request-router.js';
import { TurnPacer } from '../turn-pacer.js';
import { requestWorkerCount, WorkerPool } from '../worker-pool.js';

/**
 * Light requests this thread starts per turn of its event loop (turn-pacer.ts); the rest wait
 * for the next turn. ~100 µs each: a turn of them takes ~13 ms.
 */
const LIGHT_PER_TURN = 128;

/** Light requests under way at once (waiting on the job cache, a returner hook, a file read). */
const LIGHT_MAX_RUNNING = 2048;

/** How long a stopping request server lets the light requests under way finish. */
const LIGHT_DRAIN_MS = 2000;

/** A worker's bytes as a Buffer without a copy (they were transferred to this thread). */
const view = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/**
 * The young generation of each worker thread (MiB). Measured at 2,000 swarm minions on 2 cores:
 * 4 MiB saves ~12 MiB per thread but costs ~30% more CPU per return in scavenges (V8's GC
 * helper threads); 16 MiB (V8's usual ceiling) is the better trade now that the request server
 * runs no more threads than cores.
 */
const WORKER_YOUNG_GENERATION_MB = 16;

/**
 * Sign-ins and `_pillar` on this thread too, as the light requests (where the light lane runs
 * them here): with no more than 2 cores the worker threads only add hand-offs and the JIT of a
 * third isolate. Measured in a 1,000-minion storm (README, Performance): ~1 ms less master CPU
 * per sign-in.
 */
const minionHere = availableParallelism() <= 2;

await runChild<ResolvedMasterConfig>(
  'request-server',
  async ({ config, log, configDir, overrides, resolvedWithoutPlugins }) => {
    // the bus first: every master process fires onto it, and its firers queue until it is up
    // Salt's own listeners (salt.utils.event.get_event) may read it too (minion/salt-ipc-pub.ts)
    const bus = await bindEventBus(masterEventAddresses(config.sock_dir), {
      maxEventSize: config.max_event_size,
      log,
    });
    const busDone = bus.run().catch((err) => log.error({ err }, 'event bus failed'));
    log.info({ sock_dir: config.sock_dir, max_event_size: config.max_event_size }, 'master event bus up');
    const workers = requestWorkerCount(config.worker_threads);
    const pool = new WorkerPool({
      size: workers,
      entry: new URL('../worker-thread.js', import.meta.url),
      workerData: { configDir, overrides, resolved: resolvedWithoutPlugins },
      log,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    await pool.start();

    const push = new ZmtpPusher({ path: publishPullPath(config.sock_dir) });
    // the parent's config has the plugins stripped: with plugins, load it here (as the workers do)
    const full = resolvedWithoutPlugins
      ? config
      : await withSdbValues(await loadMasterConfig(configDir, overrides), log);
    const env = await createHandlerEnv(full, log);
    const light = new RequestHandler(env);
    const lane = new LightLane();
    lane.start();
    const stopMaintenance = startMaintenance({
      config: full,
      log,
      jobCache: full.job_cache ? env.jobCache : undefined,
      askRotation: () => process.send?.({ type: 'rotate-aes' }),
    });

    onParentMessage((msg) => {
      if ((msg as { type?: string }).type !== 'aes-rotated') return;
      pool.broadcast({ type: 'reload' });
      env.reload().catch((err) => log.error({ err }, 'reload failed'));
    });

    /** Sends a reply, then the publishes and events the request produced. */
    const deliver = (envelope: Buffer[], reply: Buffer, publishes: Buffer[], fired: Buffer[]): void => {
      router.reply([...envelope, reply]);
      for (const p of publishes) {
        if (!push.send(p))
          log.warn({ dropped: push.dropped }, 'publish hand-off dropped: the publisher is not taking them');
      }
      for (const e of fired) bus.accept(e);
    };

    /** Encodes each effect; one that cannot be encoded is logged and left out, never thrown. */
    const encodeEach = <T>(items: T[], encode: (item: T) => Buffer, what: string): Buffer[] => {
      const out: Buffer[] = [];
      for (const item of items) {
        try {
          out.push(encode(item));
        } catch (err) {
          log.warn({ err: (err as Error).message }, `${what} not sent: it cannot be encoded`);
        }
      }
      return out;
    };

    // a word given before the request waited in the queue stands only if the keys still do (a key
    // deleted or rejected meanwhile must not be served on it)
    const stillVouched = (id: string | undefined, v: Vouched | undefined): Vouched | undefined =>
      v &&
      id !== undefined &&
      env.cache.acceptedKey(id) === v.pub &&
      env.cache.session(id)?.keyString === v.session
        ? v
        : undefined;
    const intake = new RequestQueue<Vouched>(pool, (envelope, payload, id, vouched) => {
      pool.run(payload, id, stillVouched(id, vouched)).then(
        (r) => {
          deliver(envelope, view(r.reply), r.publishes.map(view), r.events.map(view));
          // the minion's next requests (its `_pillar`, its returns) are opened here: with its keys
          // known, they read no key file (learnt in this turn, before any of them can arrive)
          for (const s of r.signIns) {
            try {
              env.cache.learnFrom(s);
            } catch (err) {
              log.warn({ err, id: s.id }, 'a signed-in minion could not be cached');
            }
          }
        },
        (err) => log.error({ err }, 'request dropped'),
      );
    });

    const pacer = new TurnPacer(LIGHT_PER_TURN, LIGHT_MAX_RUNNING);
    const lightIntake = new RequestQueue(pacer, (envelope, payload, id) => {
      pacer.started();
      (minionHere ? light.handleMinion(payload) : light.handleLight(payload))
        .then((r) => {
          if ('left' in r) {
            // `_pillar` (once per minion start) or a user's command that carries an id: its
            // queue's pause request is not worth honouring
            void intake.offer(envelope, payload, id, r.vouched);
            return;
          }
          deliver(
            envelope,
            r.reply,
            encodeEach(r.effects.publishes, (p) => packIpc(p), 'publish'),
            boundedEventBodies(r.effects.events, payload.length, full.max_event_size, log),
          );
        })
        .catch((err) => log.error({ err }, 'request dropped'))
        .finally(() => pacer.finished());
    });

    let stopping = false;
    // light requests are handled here, paced; others go to the workers, where minion requests
    // queue past the pool's cap and user commands go ahead of them
    const router = await openRequestRouter(config, log, (envelope, payload) => {
      if (stopping) return undefined; // the minion's REQ socket retries on the next master
      const { id, aes, publish } = peekRequest(payload);
      if ((aes || minionHere) && id !== undefined && lane.here())
        return lightIntake.offer(envelope, payload, id);
      // a job's publish by glob or list, here too where worker threads gain no core: it saves the
      // two thread hand-offs (README, Performance: jobs/s to 10 minions)
      if (publish && minionHere) return lightIntake.offer(envelope, payload, undefined);
      return intake.offer(envelope, payload, id);
    });
    log.info(
      {
        address: tcpAddress(config.interface, config.ret_port),
        workers,
        worker_threads: config.worker_threads,
      },
      'request server listening',
    );
    return async () => {
      stopping = true;
      lane.stop();
      await stopMaintenance();
      lightIntake.close();
      intake.close();
      // returns under way are stored before they are answered: let them be answered and announced
      const deadline = Date.now() + LIGHT_DRAIN_MS;
      while (pacer.running > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      await router.close();
      await push.close(2000);
      await pool.close();
      await Promise.all(
        env.returners
          .loaded()
          .map(({ def }) => def.close?.(env.returners.context(def)).catch(() => undefined)),
      );
      await env.kernel.shutdown();
      bus.close();
      await busDone;
    };
  },
);
