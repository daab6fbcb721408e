/**
 * A master child that runs one `ext_processes` entry or one engine (its unit ref is the first
 * command-line argument, JSON). The unit starts, the child reports ready, and the unit runs
 * until the master stops it; a unit that throws at start or later ends the process with an
 * error, and the ProcessManager restarts it with capped backoff (the master fires
 * `tsalt/process/<child>/restart` each time).
 */
import { join } from 'node:path';
import type { ResolvedMasterConfig } from '../../config/index.js';
import { runChild } from '../../daemon/child-runtime.js';
import { masterProcessContext } from '../../processes/context.js';
import { findUnit, type UnitRef, unitChildName } from '../../processes/unit-ref.js';

const unit = JSON.parse(process.argv[2] ?? '{}') as UnitRef;
// A defineProcess value lives in the code config: load it here (with its plugins) to get it.
const needsPlugins = unit.kind === 'process' && !('ref' in unit);

await runChild<ResolvedMasterConfig>(
  unitChildName(unit),
  async ({ config, log, configDir }) => {
    const opts = config as unknown as Readonly<Record<string, unknown>>;
    const engineDirs = Array.isArray(opts.engines_dirs) ? opts.engines_dirs.map(String) : [];
    const abort = new AbortController();
    let ctx: ReturnType<typeof masterProcessContext> | undefined;
    let cleanup: (() => Promise<void> | void) | undefined;
    const fail = (err: unknown) => {
      log.error({ err }, `${unitChildName(unit)} failed: ${(err as Error)?.message ?? String(err)}`);
      process.exit(1);
    };
    // Ready at once: a unit that cannot load or start must never hold up the master's start;
    // it fails here, after the fact, and the ProcessManager restarts it with backoff.
    void (async () => {
      const def = await findUnit(unit, {
        configDir,
        extProcesses: config.ext_processes,
        engineDirs: [join(config.extension_modules, 'engines'), ...engineDirs],
        packages: [...config.extensions],
        log,
      });
      ctx = masterProcessContext(def, opts, unit.kind === 'engine' ? unit.options : {}, log, abort.signal);
      // `start` may set things up and return, or run for as long as the unit lives.
      const started = def.start(ctx);
      log.info({ unit: def.name, kind: unit.kind }, `${unitChildName(unit)} started`);
      const done = await started;
      if (typeof done === 'function') cleanup = done;
    })().catch(fail);
    return async () => {
      abort.abort();
      await cleanup?.();
      await ctx?.close();
    };
  },
  { needsPlugins },
);
