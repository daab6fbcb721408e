export { BUILTIN_RENDERERS } from './builtins.js';
export {
  SALT_ERR_RENDER_FAILED,
  SALT_ERR_RENDER_GPG,
  SALT_ERR_RENDER_LIMIT,
  SALT_ERR_RENDER_MISSING,
  SALT_ERR_RENDER_SYNTAX,
  SALT_ERR_RENDER_UNKNOWN,
} from './errors.js';
export { pyJson, pyJsonIndent } from './jinja/filters.js';
export { pyYamlDocument, pyYamlDump } from './jinja/pyyaml-dump.js';
export { type JinjaOptions, renderJinja } from './jinja/renderer.js';
export { compileTemplate, renderTemplate, type Template } from './jinja/template.js';
export { JinjaFunction, TemplateError } from './jinja/values.js';
export { loadJson } from './json-renderer.js';
export { DEFAULT_RENDER_LIMITS } from './limits.js';
export { type PipelineOptions, parsePipeline, pipelineOf, renderPipeline } from './pipeline.js';
export { renderersFrom, renderersPlugin } from './renderers-plugin.js';
export {
  functionNames,
  lookedUpSaltFunctions,
  NO_SALT_FUNCTIONS,
  type SaltFunctionImpl,
  saltFunctionsFrom,
} from './salt-functions.js';
export type {
  LoadedFile,
  LoadFile,
  RenderContext,
  RendererDef,
  RenderLimits,
  RenderStep,
  SaltFunctions,
} from './types.js';
export { describeWhere, type RenderErrorDetails, type RenderLocation } from './where.js';
export { loadYaml, type YamlLoadOptions } from './yaml/load.js';
