export {
  defineReaction,
  isReactionDef,
  type Reaction,
  type ReactionContext,
  type ReactionDef,
  type ReactionResult,
  type ReactorEvent,
} from './define.js';
export { type ReactorSetup, reactorDryRun, reactorListing } from './dry-run.js';
export * from './errors.js';
export { reactorOptions } from './options.js';
export { reactorPlugin } from './reactor-plugin.js';
