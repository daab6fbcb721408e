/**
 * Minion-side returners (Salt's `Minion._thread_return` tail): after a job's return has gone to
 * the master, it also goes to every returner the publish named (`salt --return a,b`) and those
 * of the minion's `return` option, with the publish's `ret_config`/`ret_kwargs`. Each returner
 * is loaded from `<extension_modules>/returners`, `returner_dirs`, `extensions` packages or the
 * built-ins; a failing one is logged with its name and changes nothing else.
 */
import { join } from 'node:path';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import { returnerNames, sendToReturners } from '../kernel/jobs/returner-calls.js';
import type { ReturnerCallOptions } from '../kernel/jobs/returner-options.js';
import type { JobReturn } from '../kernel/jobs/types.js';
import type { UnitLogger } from '../kernel/loader/define.js';
import { createReturnerLoader, type ReturnerLoader } from '../kernel/loader/returner-loader.js';
import { BUILTIN_RETURNERS } from '../plugins/builtin-dirs.js';
import type { JobOutcome } from './execute-job.js';
import type { JobData } from './job-protocol.js';

export function minionReturnerLoader(config: ResolvedMinionConfig, log: UnitLogger): ReturnerLoader {
  return createReturnerLoader({
    dirs: [join(config.extension_modules, 'returners'), ...config.returner_dirs],
    packages: [...config.extensions],
    builtin: BUILTIN_RETURNERS,
    disabled: [...config.disable_returners],
    opts: config as unknown as Readonly<Record<string, unknown>>,
    log,
  });
}

/** The returners a job goes to: the publish's `ret`, then the minion's `return` option. */
export function jobReturnerNames(job: JobData, config: ResolvedMinionConfig): string[] {
  return returnerNames(typeof job.ret === 'string' ? job.ret : '', config.return);
}

/**
 * The `ret` dict returners receive, in the order Salt's minion builds it (`_thread_return`):
 * `success`, `return`, `out`, `retcode`, `jid`, `fun`, `fun_args` (the job's parsed `arg`),
 * `user`, `ret_config`, `ret_kwargs`, then `id` (the `local` returner prints it so).
 */
export function returnerPayload(id: string, job: JobData, outcome: JobOutcome): JobReturn {
  const when = <K extends string>(key: K, value: unknown) => (value === undefined ? {} : { [key]: value });
  return {
    success: outcome.success,
    return: outcome.return,
    ...when('out', outcome.out),
    retcode: outcome.retcode,
    jid: job.jid,
    fun: job.fun,
    fun_args: job.arg,
    ...when('user', job.user),
    ...when('ret_config', job.ret_config),
    ...when('ret_kwargs', job.ret_kwargs),
    id,
  };
}

function callOptions(job: JobData): ReturnerCallOptions {
  const call: ReturnerCallOptions = {};
  if (typeof job.ret_config === 'string' && job.ret_config) call.retConfig = job.ret_config;
  const kw = job.ret_kwargs;
  if (typeof kw === 'object' && kw !== null && !Array.isArray(kw))
    call.retKwargs = kw as Record<string, unknown>;
  return call;
}

/** Sends a finished job to its returners (nothing when none are named). */
export async function returnJobToReturners(
  loader: ReturnerLoader,
  config: ResolvedMinionConfig,
  id: string,
  job: JobData,
  outcome: JobOutcome,
  log: UnitLogger,
): Promise<void> {
  const names = jobReturnerNames(job, config);
  if (names.length === 0) return;
  await sendToReturners(loader, names, returnerPayload(id, job, outcome), callOptions(job), log);
}
