/**
 * The reactor process (Salt's `Reactor`): listens to the whole master bus, hands each event to
 * the reactor (reactor.ts) one at a time, so a job it starts is known before the next event is
 * looked at, and fires its trace events on the same bus.
 */
import type { DaemonProcessContext, ResolvedMasterConfig } from '../../kernel/index.js';
import { MasterExecutor } from './executor.js';
import { LoopGuard } from './loop-guard.js';
import { reactorOptions } from './options.js';
import { Reactor } from './reactor.js';

export async function startReactor(ctx: DaemonProcessContext): Promise<() => Promise<void>> {
  const config = ctx.config as unknown as ResolvedMasterConfig;
  const log = ctx.log;
  const opts = reactorOptions.read(config);
  const executor = new MasterExecutor(config, log);
  const reactor = new Reactor({
    entries: opts.reactor,
    reactions: opts.reactions,
    files: { configDir: ctx.configDir, baseRoots: config.file_roots.base ?? [] },
    fire: (tag, data) => void ctx.fire(tag, data),
    log,
    guard: new LoopGuard({ burst: opts.reactor_loop_burst, pauseMs: opts.reactor_loop_pause * 1000 }),
    executor,
  });
  const events = ctx.listen(['']);
  const loop = (async () => {
    for await (const ev of events) {
      try {
        await reactor.handle(ev.tag, ev.data);
      } catch (err) {
        log.error({ err, tag: ev.tag }, `reactor failed on event ${ev.tag}: ${(err as Error).message}`);
      }
    }
  })().catch((err) => log.error({ err }, 'reactor listener failed'));
  log.info({ reactor: opts.reactor.length, reactions: opts.reactions.length }, 'reactor started');
  return async () => {
    events.close();
    await loop;
    executor.close();
  };
}
