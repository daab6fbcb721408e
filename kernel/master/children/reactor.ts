/**
 * The reactor child (Salt's `Reactor` process): started when `reactor:` or `reactions:` is
 * non-empty. It listens to the whole master bus, hands each event to the reactor
 * (plugins/reactor/) one at a time, so a job it starts is known before the next event is
 * looked at, and fires its trace events on the same bus.
 */

import { MasterExecutor } from '../../../plugins/reactor/executor.js';
import { LoopGuard } from '../../../plugins/reactor/loop-guard.js';
import { Reactor } from '../../../plugins/reactor/reactor.js';
import { EventFirer, EventListener, masterEventAddresses } from '../../bus/event-bus.js';
import type { ResolvedMasterConfig } from '../../config/index.js';
import { readBoot } from '../../daemon/boot.js';
import { runChild } from '../../daemon/child-runtime.js';

// TypeScript reactions are functions in the code config: load it here to get them.
const boot = readBoot();
const resolvedReactions = boot.resolved?.reactions;
const needsPlugins = Array.isArray(resolvedReactions) && resolvedReactions.length > 0;

await runChild<ResolvedMasterConfig>(
  'reactor',
  async ({ config, log, configDir }) => {
    const addrs = masterEventAddresses(config.sock_dir);
    const firer = new EventFirer(addrs);
    const executor = new MasterExecutor(config, log);
    const reactor = new Reactor({
      entries: config.reactor,
      reactions: config.reactions,
      files: { configDir, baseRoots: config.file_roots.base ?? [] },
      fire: (tag, data) => firer.fire(tag, data),
      log,
      guard: new LoopGuard({ burst: config.reactor_loop_burst, pauseMs: config.reactor_loop_pause * 1000 }),
      executor,
    });
    const listener = new EventListener(addrs, ['']);
    const loop = (async () => {
      for await (const ev of listener) {
        try {
          await reactor.handle(ev.tag, ev.data);
        } catch (err) {
          log.error({ err, tag: ev.tag }, `reactor failed on event ${ev.tag}: ${(err as Error).message}`);
        }
      }
    })().catch((err) => log.error({ err }, 'reactor listener failed'));
    log.info({ reactor: config.reactor.length, reactions: config.reactions.length }, 'reactor started');
    return async () => {
      listener.close();
      await loop;
      executor.close();
      await firer.close();
    };
  },
  { needsPlugins },
);
