export { compileTemplate, renderTemplate, type Template } from './render.js';
export { TemplateError } from './values.js';
