export { checkClearAuth, userKeyMatches } from './auth.js';
export { type RunnerCall, RunnerClient, type RunnerEvent } from './client.js';
export { createRunnerContext, loaderDocs, type RunnerContextParts } from './context.js';
export type {
  JobCacheView,
  MinionCallOptions,
  MinionCallReturn,
  MinionClient,
  RunnerContext,
  RunnerFunctionIndex,
  RunnerFunctionSpec,
  RunnerModuleDef,
  WheelContext,
  WheelModuleDef,
} from './define.js';
export { defineRunner, defineRunnerFunction, defineWheel, defineWheelFunction } from './define.js';
export { funArgs, invokeFunction, normalizeArgs, type RunnerOutcome } from './invoke.js';
export { filterJobs, jobCacheView, jobMatches } from './job-cache.js';
export {
  BUILTIN_DIRS,
  createRunnerLoader,
  createWheelLoader,
  type RunnerKind,
  type RunnerLoader,
  runnerSearchDirs,
} from './loader.js';
export { RunnerMinionClient } from './minion-client.js';
