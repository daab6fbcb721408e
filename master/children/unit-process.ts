/**
 * A master child that runs one `ext_processes` entry or one engine (its unit ref is the first
 * command-line argument, JSON). The unit starts, the child reports ready, and the unit runs
 * until the master stops it; a unit that throws at start or later ends the process with an
 * error, and the ProcessManager restarts it with capped backoff (the master fires
 * `tsalt/process/<child>/restart` each time). The unit's life: kernel/units/run-unit.ts.
 */
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { runChild } from '../../kernel/daemon/child-runtime.js';
import { signalReady } from '../../kernel/process/child.js';
import { masterProcessContext } from '../../kernel/units/context.js';
import { runUnit } from '../../kernel/units/run-unit.js';
import { findUnit, type UnitRef, unitChildName, unitSearch } from '../../kernel/units/unit-ref.js';
import { BUILTIN_DIRS } from '../../plugins/builtin-dirs.js';

const unit = JSON.parse(process.argv[2] ?? '{}') as UnitRef;
// A defineProcess value lives in the code config: load it here (with its plugins) to get it.
const needsPlugins = unit.kind === 'process' && !('ref' in unit);

await runChild<ResolvedMasterConfig>(
  unitChildName(unit),
  async ({ config, log, configDir }) => {
    const opts = config as unknown as Readonly<Record<string, unknown>>;
    return runUnit({
      label: unitChildName(unit),
      kind: unit.kind,
      log,
      ready: signalReady,
      find: () => findUnit(unit, unitSearch(opts, configDir, log, [BUILTIN_DIRS.engines])),
      context: (def, signal) =>
        masterProcessContext(def, opts, unit.kind === 'engine' ? unit.options : {}, log, signal),
    });
  },
  { needsPlugins },
);
