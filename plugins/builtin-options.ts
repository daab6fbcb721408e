/**
 * The option sets of the built-in plugins, in one list: for docs/config.md
 * (tools/gen-config-docs.ts) and for the entry points that must know every option before a
 * config is loaded (the loader warns about options no schema declares).
 */
import type { OptionSet } from '../kernel/index.js';
import { iptablesModuleOptions } from '../modules/_iptables-config.js';
import { mysqlModuleOptions } from '../modules/_mysql-options.js';
import { executionModuleOptions } from '../modules/_options.js';
import { postgresModuleOptions } from '../modules/_pg-options.js';
import { returnerBlockOptions } from '../returners/option-blocks.js';
import { clusterMinionOptions, clusterOptions } from './cluster/options.js';
import { eventReturnOptions } from './event-return/options.js';
import { fileServerOptionSet, minionFileRootsOption } from './file-server/options.js';
import { httpOptions } from './http/options.js';
import { jobProcessOptions } from './job-processes/options.js';
import { matchersOptions } from './matchers/options.js';
import { mineMasterOptions, mineMinionOptions } from './mine/options.js';
import { netapiMasterOptions } from './netapi/options.js';
import { peerOptions } from './peer/options.js';
import { gitPillarOptionSet } from './pillar/git-pillar/options.js';
import { pillarMinionOptionSet, pillarOptionSet } from './pillar/options.js';
import { reactorOptions } from './reactor/options.js';
import { renderersOptions } from './renderers/options.js';
import { scheduleOptions } from './schedule/options.js';
import { sdbOptions } from './sdb/options.js';
import { minionStatesOptions, statesOptions } from './states/options.js';
import { wheelOptions } from './wheel/options.js';

export const BUILTIN_OPTION_SETS: readonly OptionSet[] = [
  reactorOptions,
  eventReturnOptions,
  renderersOptions,
  netapiMasterOptions,
  fileServerOptionSet,
  minionFileRootsOption,
  pillarOptionSet,
  pillarMinionOptionSet,
  gitPillarOptionSet,
  mineMasterOptions,
  mineMinionOptions,
  peerOptions,
  statesOptions,
  minionStatesOptions,
  scheduleOptions,
  jobProcessOptions,
  matchersOptions,
  clusterOptions,
  clusterMinionOptions,
  httpOptions,
  sdbOptions,
  returnerBlockOptions,
  wheelOptions,
  executionModuleOptions,
  postgresModuleOptions,
  iptablesModuleOptions,
  mysqlModuleOptions,
];
