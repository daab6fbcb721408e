export { filterJobs, jobCacheView, jobMatches, startTimeDate } from './job-cache-view.js';
export { type CollectedReturn, LocalClient, type PublishOptions, type PublishReply } from './local-client.js';
export { type RunnerCall, RunnerClient, type RunnerEvent } from './runner-client.js';
export { type CmdOptions, SaltClient } from './salt-client.js';
