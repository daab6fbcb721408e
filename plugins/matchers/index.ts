export { defineMatcher, isMatcherDef, type MatcherContext, type MatcherDef } from './define.js';
export { loadMatchers, type MatcherSources, matcherDirs } from './load.js';
export { matchersOptions } from './options.js';
export { matchersFromOpts, processMatchers, setProcessMatchers } from './registry.js';
