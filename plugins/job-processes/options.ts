/**
 * The options of the minion's job-process pool (minion/executor.ts) that tsalt adds beside the
 * kernel's `job_processes_max`: how long an idle job process stays.
 */
import { defineOptions, numberOption, type OptionsInput } from '../../kernel/index.js';

export const jobProcessOptions = defineOptions('minion', {
  job_process_idle_timeout: numberOption(
    30,
    'tsalt: seconds a job process with no job stays before it exits; the next job that needs one starts a new one (~0.3 s of CPU: Node, zod, the logger and the grains). An idle minion is then its main process alone. 0: idle job processes stay.',
    { min: 0 },
  ),
});

declare module '../../kernel/index.js' {
  interface MinionPluginOptions extends OptionsInput<typeof jobProcessOptions> {}
}
