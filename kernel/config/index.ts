/**
 * tsalt configuration: `-c DIR` loading, the master and minion schemas (Salt's option names and
 * defaults), `defineConfig`, and the resolved, frozen config types.
 */
export { type ConfigKind, searchPlaces } from './constants.js';
export {
  type ConfigEnv,
  type ConfigExport,
  type ConfigFn,
  defineConfig,
  defineMinionConfig,
} from './define-config.js';
export type { DeepReadonly } from './freeze.js';
export { findConfigFiles, type LoadedConfig, loadConfig } from './load.js';
export { type MinionIdOptions, resolveMinionId } from './minion-id.js';
export {
  type ConfigWithExtra,
  declaredOptionSets,
  defineOptions,
  type MasterPluginOptions,
  type MinionPluginOptions,
  type OptionSet,
  type OptionsInput,
} from './option-set.js';
export { hasUrlScheme, prependRootDir } from './paths.js';
export type { ConfigIssue } from './report.js';
// the schemas and resolveConfig load with the first loadConfig (load.ts): their zod work is
// ~20 ms of a job process's start, which validates no config
export type { ResolveContext, ResolvedMasterConfig, ResolvedMinionConfig, ResolveResult } from './resolve.js';
export {
  boolOption,
  collectionOption,
  enumOption,
  intOption,
  type KernelPluginLike,
  mappingOption,
  nullableStringOption,
  numberOption,
  pathOption,
  stringListOption,
  stringOption,
  stringOrListOption,
} from './schema-common.js';
export type { MasterSchemaOutput, UserMasterConfig } from './schema-master.js';
export type { MinionSchemaOutput, UserMinionConfig } from './schema-minion.js';
