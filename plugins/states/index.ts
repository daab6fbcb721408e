/** The states plugin's public door (`tsalt/states`): what a state module's author imports. */
export {
  defineState,
  defineStateModule,
  type StateCallOptions,
  type StateContext,
  type StateFunctionSpec,
  type StateFunctions,
  type StateModuleDef,
  type StateReturn,
} from './define.js';
export type { HighBody, HighData, LowChunk, StateResult, StateRunResult } from './types.js';
