/**
 * The request server child (Salt's `ReqServer` + `MWorkerQueue`): a ROUTER on `ret_port`
 * feeding `worker_threads` worker threads. This thread owns every socket: it sends replies,
 * pushes publish loads to the publisher and fires the workers' events on the master bus.
 */
import { publishPullPath, tcpAddress } from '../../bus/address.js';
import { EventFirer, masterEventAddresses } from '../../bus/event-bus.js';
import { ZmtpPusher } from '../../bus/zmtp/push-socket.js';
import type { ResolvedMasterConfig } from '../../config/index.js';
import { runChild } from '../../daemon/child-runtime.js';
import { onParentMessage } from '../../process/child.js';
import { RequestQueue } from '../request-queue.js';
import { openRequestRouter } from '../request-router.js';
import { requestWorkerCount, WorkerPool } from '../worker-pool.js';

/**
 * The young generation of each worker thread (MiB). Measured at 2,000 swarm minions on 2 cores:
 * 4 MiB saves ~12 MiB per thread but costs ~30% more CPU per return in scavenges (V8's GC
 * helper threads); 16 MiB (V8's usual ceiling) is the better trade now that the request server
 * runs no more threads than cores.
 */
const WORKER_YOUNG_GENERATION_MB = 16;

await runChild<ResolvedMasterConfig>(
  'request-server',
  async ({ config, log, configDir, overrides, resolvedWithoutPlugins }) => {
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
    const events = new EventFirer(masterEventAddresses(config.sock_dir));

    onParentMessage((msg) => {
      if ((msg as { type?: string }).type === 'aes-rotated') pool.broadcast({ type: 'reload' });
    });

    const intake = new RequestQueue(pool, (envelope, payload, id) => {
      pool.run(payload, id).then(
        (r) => {
          router.reply([...envelope, Buffer.from(r.reply.buffer, r.reply.byteOffset, r.reply.byteLength)]);
          for (const p of r.publishes) {
            if (!push.send(Buffer.from(p.buffer, p.byteOffset, p.byteLength)))
              log.warn(
                { dropped: push.dropped },
                'publish hand-off dropped: the publisher is not taking them',
              );
          }
          for (const e of r.events) events.fireRaw(Buffer.from(e.buffer, e.byteOffset, e.byteLength));
        },
        (err) => log.error({ err }, 'request dropped'),
      );
    });

    // minion requests queue past the pool's cap; user commands go ahead of them
    const router = await openRequestRouter(config, log, (envelope, payload) =>
      intake.offer(envelope, payload),
    );
    log.info(
      {
        address: tcpAddress(config.interface, config.ret_port),
        workers,
        worker_threads: config.worker_threads,
      },
      'request server listening',
    );
    return async () => {
      intake.close();
      await router.close();
      await Promise.all([push.close(2000), events.close()]);
      await pool.close();
    };
  },
);
