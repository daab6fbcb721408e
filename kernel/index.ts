/** tsalt's public API for config files and plugin authors. */

export {
  type BeaconContext,
  type BeaconDef,
  type BeaconEvent,
  defineBeacon,
  isBeaconDef,
} from './beacons/define.js';
export {
  type ClearAuthRefusal,
  type CommandContext,
  type CommandDef,
  type CommandEnc,
  type CommandLane,
  defineCommand,
} from './commands/define.js';
export {
  boolOption,
  type ConfigEnv,
  type ConfigWithExtra,
  collectionOption,
  defineConfig,
  defineMinionConfig,
  defineOptions,
  enumOption,
  intOption,
  loadConfig,
  type MasterPluginOptions,
  type MinionPluginOptions,
  mappingOption,
  nullableStringOption,
  numberOption,
  type OptionSet,
  type OptionsInput,
  pathOption,
  type ResolvedMasterConfig,
  type ResolvedMinionConfig,
  stringListOption,
  stringOption,
  stringOrListOption,
  type UserMasterConfig,
  type UserMinionConfig,
} from './config/index.js';
export * from './errors.js';
export type { KernelHooks, TapOnly, TapOnlyHook } from './hooks.js';
export { callFunction, functionTable } from './jobs/exec-context.js';
export { type MasterJobCache, masterReturnerLoader, openMasterJobCache } from './jobs/master-job-cache.js';
export { RetcodeResult } from './jobs/retcode.js';
export {
  defineReturner,
  type EndState,
  type JobQuery,
  type JobSummary,
  type ReturnerContext,
  type ReturnerDef,
  type StoredLoad,
  type StoredReturn,
} from './jobs/returner.js';
export type {
  JobReturn,
  MinionJob,
  MinionJobOutcome,
  PublishLoad,
  PublishRequest,
  RunnerReturn,
  SaltEvent,
  StoredJob,
} from './jobs/types.js';
export type { KindName, KindRegistrar, PluginKinds } from './kinds.js';
export {
  type ArgsBuilder,
  defineFunction,
  defineGrains,
  defineModule,
  type ExecContext,
  type ExtraArgs,
  type FunctionIndex,
  type FunctionSpec,
  type GrainsContext,
  type GrainsModuleDef,
  type MasterLink,
  type ModuleDef,
  type PillarAsk,
  type ResolvedFunctionSpec,
  resolveFunctionArgs,
  type UnitLogger,
  type VirtualContext,
  type VirtualResult,
} from './loader/define.js';
export { createModuleLoader, type ModuleLoader, type ModuleLoaderOptions } from './loader/module-loader.js';
export {
  type DaemonKind,
  definePlugin,
  type KernelPlugin,
  type PluginApi,
  type PluginOption,
} from './plugin.js';
export { definePluginFactory } from './plugin-factory.js';
export {
  type DaemonProcessContext,
  type DaemonProcessDef,
  defineDaemonProcess,
} from './process/daemon-process.js';
export {
  defineTask,
  type StartTaskOptions,
  type TaskContext,
  type TaskDef,
  type TaskFailure,
} from './process/task.js';
export type { Registry } from './registry.js';
export {
  defineRunner,
  defineRunnerFunction,
  defineWheel,
  defineWheelFunction,
  type JobCacheView,
  type MinionClient,
  type RunnerContext,
  type RunnerFunctionSpec,
  type RunnerModuleDef,
  type WheelContext,
  type WheelModuleDef,
} from './runners/define.js';
export * as stages from './stages.js';
export {
  defineEngine,
  defineProcess,
  type EventStream,
  type ProcessContext,
  type ProcessDef,
} from './units/define.js';
export { SALT_COMPAT_VERSION, VERSION } from './version.js';
