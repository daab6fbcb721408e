/**
 * Checks what a unit file default-exports, and reads what its `virtual()` answered.
 * Unit files are plain JavaScript at run time, so nothing about their shape is trusted.
 */
import { SALT_ERR_LOADER_INVALID_UNIT } from '../errors.js';
import type { ModuleDef } from './define.js';

/** Whether `name` can be a module name: non-empty, no dot, no whitespace. */
export function isModuleName(name: unknown): name is string {
  return typeof name === 'string' && name !== '' && !/[.\s]/.test(name);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function shapeProblem(def: unknown): string | undefined {
  if (!isRecord(def)) return 'the default export is not a module definition object';
  if (!isModuleName(def.name)) return '`name` must be a non-empty string without dots';
  if (def.doc !== undefined && typeof def.doc !== 'string') return '`doc` must be a string';
  if (def.virtual !== undefined && typeof def.virtual !== 'function') return '`virtual` must be a function';
  if (def.aliases !== undefined) {
    if (!Array.isArray(def.aliases) || !def.aliases.every(isModuleName)) {
      return '`aliases` must be an array of module names';
    }
  }
  if (!isRecord(def.functions) || Array.isArray(def.functions)) return '`functions` must be an object';
  for (const [fn, spec] of Object.entries(def.functions)) {
    if (!isRecord(spec) || typeof spec.run !== 'function') {
      return `function "${fn}" must be an object with a run() method`;
    }
  }
  return undefined;
}

/**
 * Returns the default export of an imported unit file as a {@link ModuleDef}.
 * @throws SALT_ERR_LOADER_INVALID_UNIT when the export does not have a module's shape.
 */
export function validateModuleDef(namespace: unknown, path: string): ModuleDef {
  if (!isRecord(namespace) || !('default' in namespace)) {
    throw new SALT_ERR_LOADER_INVALID_UNIT(path, 'no default export');
  }
  const problem = shapeProblem(namespace.default);
  if (problem !== undefined) throw new SALT_ERR_LOADER_INVALID_UNIT(path, problem);
  return namespace.default as ModuleDef;
}

/** What `virtual()` decided, normalized: load under `name`, or stay missing for `reason`. */
export type VirtualDecision = { load: true; name: string } | { load: false; reason: string };

/**
 * Normalizes a `virtual()` answer. `true` keeps the module's own name; `{ name }` renames it;
 * `{ ok: false, reason }` refuses it. A bare falsy answer (plain JavaScript units) refuses with no
 * reason, which Salt prints as `'x' __virtual__ returned False`.
 * @throws SALT_ERR_LOADER_INVALID_UNIT for any other answer.
 */
export function readVirtualResult(result: unknown, def: ModuleDef, path: string): VirtualDecision {
  if (result === true) return { load: true, name: def.name };
  if (result === false || result === undefined || result === null) return { load: false, reason: '' };
  if (isRecord(result)) {
    if (result.ok === false) {
      return { load: false, reason: typeof result.reason === 'string' ? result.reason : '' };
    }
    if ('name' in result) {
      if (isModuleName(result.name)) return { load: true, name: result.name };
      throw new SALT_ERR_LOADER_INVALID_UNIT(path, 'virtual() returned a name that is not a module name');
    }
  }
  throw new SALT_ERR_LOADER_INVALID_UNIT(
    path,
    'virtual() must return true, { ok: false, reason } or { name }',
  );
}
