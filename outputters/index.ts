export { pyRepr, pyStr } from '../kernel/python/index.js';
export type { ColorChoice, ColorName, ColorTable } from './colors.js';
export { getColors, resolveColor, SALT_COLORS } from './colors.js';
export { jsonOutputter, renderJson } from './json.js';
export type { KeyLists, KeyListWhich, KeyOutputData, KeyStatus } from './key-list.js';
export {
  keyListWhich,
  keyOutputter,
  renderFingerprints,
  renderKeyList,
  renderKeyOutput,
} from './key-list.js';
export { nestedOutputter, renderNested } from './nested.js';
export { newlineValuesOnlyOutputter, renderNewlineValuesOnly } from './newline-values-only.js';
export { pprintOutputter, renderPprint } from './pprint.js';
export { quietOutputter } from './quiet.js';
export { rawOutputter, renderRaw } from './raw.js';
export { getOutputter, listOutputters, registerOutputter, resolveOutputter } from './registry.js';
export { renderReturnsSummary, returnRetcode } from './returns-summary.js';
export { renderTxt, txtOutputter } from './txt.js';
export type { OutputOptions, Outputter } from './types.js';
export { defineOutputter } from './types.js';
export { renderYaml, yamlOutputter } from './yaml.js';
