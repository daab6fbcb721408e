/**
 * A minion child that runs one engine (Salt's minion-side `engines:`). Its unit ref (JSON) and
 * the minion id are the command-line arguments. The engine is found as on the master
 * (`<extension_modules>/engines`, `engines_dirs`, the `extensions` packages, the built-ins);
 * its `ctx.fire` sends each event to the master through the minion's main process (the job
 * processes' IPC master link), so it reaches the master bus as a `_minion_event`; its
 * `ctx.listen` reads the minion's own bus (minion/local-bus.ts), where `event.fire` fires. A failure
 * ends the process and the minion's ProcessManager restarts it (minion/engines.ts).
 */
import { EventListener } from '../kernel/bus/event-bus.js';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import { runChild } from '../kernel/daemon/child-runtime.js';
import { signalReady } from '../kernel/process/child.js';
import { minionProcessContext } from '../kernel/units/context.js';
import { runUnit } from '../kernel/units/run-unit.js';
import { findUnit, type UnitRef, unitChildName, unitSearch } from '../kernel/units/unit-ref.js';
import { BUILTIN_DIRS } from '../plugins/builtin-dirs.js';
import { minionEventAddresses } from './local-bus.js';
import { ipcMasterLink } from './master-link.js';

const unit = JSON.parse(process.argv[2] ?? '{}') as UnitRef;
const id = process.argv[3] ?? '';

await runChild<ResolvedMinionConfig>(unitChildName(unit), async ({ config, log, configDir }) => {
  const opts = config as unknown as Readonly<Record<string, unknown>>;
  const link = ipcMasterLink(process);
  return runUnit({
    label: unitChildName(unit),
    kind: unit.kind,
    log,
    ready: signalReady,
    // a minion has no ext_processes: only engines are found here
    find: () =>
      findUnit(unit, { ...unitSearch(opts, configDir, log, [BUILTIN_DIRS.engines]), extProcesses: [] }),
    context: (def, signal) =>
      minionProcessContext(def, { ...opts, id }, unit.kind === 'engine' ? unit.options : {}, log, signal, {
        id,
        request: (load) => link.request(load),
        listen: (prefixes) => {
          const listener = new EventListener(minionEventAddresses(String(opts.sock_dir), id), prefixes);
          return {
            [Symbol.asyncIterator]: () => listener[Symbol.asyncIterator](),
            close: () => listener.close(),
          };
        },
      }),
  });
});
