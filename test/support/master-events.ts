/**
 * Collects a test cluster master's bus events whose tags start with the given prefixes, as they
 * arrive, for integration tests that watch what minions fire.
 */
import { join } from 'node:path';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import type { Cluster } from '../../tools/local-cluster.js';

export interface MasterEvents {
  /** Every matching event so far, in arrival order. */
  readonly seen: SaltEvent[];
  close(): void;
}

/** Starts listening on `c`'s master bus (the master must be running); resolves once subscribed. */
export async function collectMasterEvents(c: Cluster, prefixes: string[]): Promise<MasterEvents> {
  const events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), prefixes);
  await events.ready();
  const seen: SaltEvent[] = [];
  void (async () => {
    for await (const ev of events) seen.push(ev);
  })();
  return { seen, close: () => events.close() };
}
