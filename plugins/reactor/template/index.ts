export { compileTemplate, renderTemplate, type Template } from '../../renderers/jinja/template.js';
export { TemplateError } from '../../renderers/jinja/values.js';
