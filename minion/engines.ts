/**
 * The minion's engines (Salt's `engines:` in the minion config): each runs in its own child
 * (minion/unit-process.ts) under a ProcessManager of the minion, restarted
 * with capped backoff when it dies. An engine's events go to the master: the child asks this
 * process to send each `_minion_event` load (the job processes' `master-request` IPC), and
 * this process sends it on the minion's authenticated channel. Each restart fires
 * `tsalt/minion/<id>/process/<child>/restart` to the master (the master's own units fire
 * `tsalt/process/<child>/restart`) and logs a warning.
 */
import { fileURLToPath } from 'node:url';
import { bootEnv, resolvedForChildren } from '../kernel/daemon/boot.js';
import type { BackoffPolicy } from '../kernel/process/backoff.js';
import { type ProcessLogger, ProcessManager } from '../kernel/process/process-manager.js';
import { minionEngineEventLoad } from '../kernel/units/context.js';
import { engineUnits, unitChildName } from '../kernel/units/unit-ref.js';
import type { MasterRequest } from './job-protocol.js';
import { answerMasterRequest } from './master-link.js';

/** The compiled engine child (`dist/kernel/units/minion-unit-process.js`). */
export const MINION_UNIT_PROCESS = fileURLToPath(new URL('./unit-process.js', import.meta.url));

export interface EnginesOptions {
  id: string;
  /** The minion config's `engines` list (Salt's grammar: names or `{name: {options}}`). */
  engines: readonly unknown[];
  /** The minion's resolved config, handed to the children. */
  config: object;
  boot: { configDir: string; overrides: Record<string, unknown> };
  /** Sends one aes load to the master (the minion's `sendToMaster`). */
  send(load: Record<string, unknown>): Promise<unknown>;
  log: ProcessLogger;
  /** Default: kernel/units/minion-unit-process.js. */
  modulePath?: string;
  /** SIGTERM → SIGKILL on stop; default 5000 ms. */
  killTimeoutMs?: number;
  backoff?: BackoffPolicy;
}

export interface RunningEngines {
  readonly pm: ProcessManager;
  /** Resolves when every engine child reported ready (or failed to). */
  readonly started: Promise<void>;
  stop(): Promise<void>;
}

/** The tag of a minion unit's restart event. */
export function minionRestartTag(id: string, child: string): string {
  return `tsalt/minion/${id}/process/${child}/restart`;
}

function isMasterRequest(msg: unknown): msg is MasterRequest {
  const m = msg as Partial<MasterRequest> | null;
  return m?.type === 'master-request' && typeof m.rid === 'number' && typeof m.load === 'string';
}

/** Starts the configured engines in the background; `undefined` when there are none. */
export function startEngines(o: EnginesOptions): RunningEngines | undefined {
  const units = engineUnits(o.engines);
  if (units.length === 0) return undefined;
  const pm = new ProcessManager({
    log: o.log,
    killTimeoutMs: o.killTimeoutMs ?? 5000,
    ...(o.backoff ? { backoff: o.backoff } : {}),
  });
  const env = bootEnv({
    kind: 'minion',
    configDir: o.boot.configDir,
    overrides: { ...o.boot.overrides, id: o.id },
    resolved: resolvedForChildren(o.config),
  });
  for (const unit of units) {
    try {
      pm.add({
        name: unitChildName(unit),
        modulePath: o.modulePath ?? MINION_UNIT_PROCESS,
        args: [JSON.stringify(unit), o.id],
        env,
        restart: 'always',
      });
    } catch (err) {
      o.log.error({ engine: unit.name, err: (err as Error).message }, `engine ${unit.name} not started`);
    }
  }
  pm.on('message', (proc, msg) => {
    if (!isMasterRequest(msg)) return;
    void answerMasterRequest(msg, o.send).then((reply) => pm.send(proc.name, reply).catch(() => false));
  });
  pm.on('restart', (proc, info) => {
    o.log.warn(
      { process: proc.name, restarts: proc.restarts, exit: info.exit, delayMs: info.delayMs },
      `engine ${proc.name} restarted`,
    );
    const data = {
      name: proc.name,
      restarts: proc.restarts,
      exit_code: info.exit.code,
      signal: info.exit.signal,
      delay_ms: info.delayMs,
    };
    void o
      .send(minionEngineEventLoad(o.id, minionRestartTag(o.id, proc.name), data))
      .catch((err) =>
        o.log.warn({ err: (err as Error).message, process: proc.name }, 'restart event not delivered'),
      );
  });
  const started = pm.start().catch((err) => {
    o.log.error({ err: (err as Error).message }, `engines not started: ${(err as Error).message}`);
  });
  return {
    pm,
    started,
    async stop() {
      await pm.stop();
      await started;
    },
  };
}
