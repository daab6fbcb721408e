/**
 * Identity helpers that type `master.config.ts` / `minion.config.ts` (vite's `defineConfig`):
 * the default export may be an object, a promise of one, or a function of the load env.
 */
import type { ConfigKind } from './constants.js';
import type { UserMasterConfig } from './schema-master.js';
import type { UserMinionConfig } from './schema-minion.js';

/** What a config function receives. */
export interface ConfigEnv {
  /** Which daemon is loading the config. */
  kind: ConfigKind;
}

/** A config computed when loaded. */
export type ConfigFn<C> = (env: ConfigEnv) => C | Promise<C>;

/** Every form a config module may default-export. */
export type ConfigExport<C> = C | Promise<C> | ConfigFn<C>;

/** Types a master config. */
export function defineConfig(config: UserMasterConfig): UserMasterConfig;
export function defineConfig(config: Promise<UserMasterConfig>): Promise<UserMasterConfig>;
export function defineConfig(config: ConfigFn<UserMasterConfig>): ConfigFn<UserMasterConfig>;
export function defineConfig(config: ConfigExport<UserMasterConfig>): ConfigExport<UserMasterConfig> {
  return config;
}

/** Types a minion config. */
export function defineMinionConfig(config: UserMinionConfig): UserMinionConfig;
export function defineMinionConfig(config: Promise<UserMinionConfig>): Promise<UserMinionConfig>;
export function defineMinionConfig(config: ConfigFn<UserMinionConfig>): ConfigFn<UserMinionConfig>;
export function defineMinionConfig(config: ConfigExport<UserMinionConfig>): ConfigExport<UserMinionConfig> {
  return config;
}
