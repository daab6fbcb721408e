/**
 * The minion's `startup_states` (Salt's `Minion._state_run`): once connected and given its
 * pillar, a minion with `startup_states: highstate` (or `sls` with `sls_list`, or `top` with
 * `top_file`) runs that state job as a locally started job (`jid: req`, the master assigns
 * one), and returns it to the master like any job.
 */
import type { MinionJob } from '../kernel/jobs/types.js';

/** The job `startup_states` asks for, or undefined when it is empty. */
export function startupJob(opts: Readonly<Record<string, unknown>>): MinionJob | undefined {
  const mode = opts.startup_states;
  if (typeof mode !== 'string' || mode === '') return undefined;
  const extra = (opts.extra ?? {}) as Record<string, unknown>;
  const get = (k: string) => opts[k] ?? extra[k];
  const job: MinionJob = {
    jid: 'req',
    fun: 'state.highstate',
    arg: [],
    ret: String(opts.ext_job_cache ?? ''),
  };
  if (mode === 'sls') {
    const list = get('sls_list');
    return { ...job, fun: 'state.sls', arg: [Array.isArray(list) ? list.join(',') : String(list ?? '')] };
  }
  if (mode === 'top') return { ...job, fun: 'state.top', arg: [String(get('top_file') ?? '')] };
  return job;
}
