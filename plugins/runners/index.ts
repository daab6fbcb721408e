// what a minion needs to run runner and wheel functions itself (modules/saltutil.ts)
export { saltutilCmd } from './master-minion.js';
export { createRunnerContext } from './runner-context.js';
export { masterId } from './runner-events.js';
export { emptyJobs } from './runner-task.js';
export { runnersPlugin } from './runners-plugin.js';
