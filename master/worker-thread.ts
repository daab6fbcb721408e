/**
 * A request-server worker thread (Salt's `MWorker`): runs request handlers, including the RSA
 * work of sign-ins, off the router thread so both cores serve requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import { createLogger } from '../kernel/log.js';
import { packIpc } from '../kernel/serial/index.js';
import { boundedEventBodies } from './bounded-events.js';
import { loadMasterConfig, withSdbValues } from './config-reload.js';
import { createHandlerEnv } from './handler-env.js';
import { RequestHandler } from './request-handler.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('worker-thread.ts must run as a worker thread');
const { configDir, overrides, index, resolved } = workerData as {
  configDir: string;
  overrides: Record<string, unknown>;
  index: number;
  /** Set when the config has no plugins: then this thread need not load the config code. */
  resolved?: Record<string, unknown>;
};
const post = (msg: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(msg, transfer);

try {
  const loaded =
    (resolved as ResolvedMasterConfig | undefined) ?? (await loadMasterConfig(configDir, overrides));
  const log = createLogger({
    name: `salt-master/MWorker-${index}`,
    level: loaded.log_level,
    file: loaded.log_file,
    fileLevel: loaded.log_level_logfile ?? loaded.log_level,
  });
  // a config loaded here (it has plugins) reads its sdb:// values as the master did at start
  const c = resolved ? loaded : await withSdbValues(loaded, log);
  const env = await createHandlerEnv(c, log);
  const handler = new RequestHandler(env);
  port.on('message', (msg: ToWorker) => {
    if (msg.type === 'reload') {
      env.reload().catch((err) => log.error({ err }, 'reload failed'));
      return;
    }
    void handler.handle(msg.frame, msg.vouched).then(({ reply, effects }) => {
      // Encoders return slices of a shared pool: copy each into its own buffer and transfer it.
      const own = (b: Uint8Array): Uint8Array => new Uint8Array(b);
      const out = {
        type: 'reply' as const,
        seq: msg.seq,
        reply: own(reply),
        publishes: effects.publishes.map((p) => own(packIpc(p))),
        events: boundedEventBodies(effects.events, msg.frame.length, c.max_event_size, log).map(own),
        signIns: effects.signIns,
      };
      post(
        out,
        [out.reply, ...out.publishes, ...out.events].map((b) => b.buffer as ArrayBuffer),
      );
    });
  });
  post({ type: 'ready' });
} catch (err) {
  const e = err as { code?: string; message?: string };
  post({ type: 'fatal', code: e.code ?? 'SALT_ERR_PROCESS_START', message: e.message ?? String(err) });
}
