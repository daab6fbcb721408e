/** The renderers tsalt ships (Salt's `salt/renderers/` built-ins it supports), by name. */
import { gpgRenderer } from './gpg-renderer.js';
import { jinjaRenderer } from './jinja/renderer.js';
import { jsRenderer } from './js-renderer.js';
import { jsonRenderer } from './json-renderer.js';
import type { RendererDef } from './types.js';
import { yamlRenderer } from './yaml/renderer.js';

export const BUILTIN_RENDERERS: readonly RendererDef[] = [
  jinjaRenderer,
  yamlRenderer,
  jsonRenderer,
  gpgRenderer,
  jsRenderer,
];
