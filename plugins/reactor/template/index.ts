export { compileTemplate, renderTemplate, type Template, TemplateError } from '../../renderers/index.js';
