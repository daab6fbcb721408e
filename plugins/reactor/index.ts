export {
  defineReaction,
  isReactionDef,
  type Reaction,
  type ReactionContext,
  type ReactionDef,
  type ReactionResult,
  type ReactorEvent,
} from './define.js';
export { reactorOptions } from './options.js';
export { reactorPlugin } from './reactor-plugin.js';
