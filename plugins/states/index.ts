/** The states plugin's public door (`tsalt/states`): what a state module's author imports. */

export { pyOrderedStr } from './compile/py.js';
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
export { type Chunk, defineAggregate } from './define-aggregate.js';
export { pyClassName, pyShortName } from './runtime/exception.js';
export { stateFunctions } from './state-functions.js';
export type {
  HighBody,
  HighData,
  LowChunk,
  RunContext,
  SlsFile,
  SlsRenderer,
  SlsSource,
  StateResult,
  StateRunResult,
} from './types.js';
