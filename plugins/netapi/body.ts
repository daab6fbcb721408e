/**
 * Request bodies as salt-api reads them (`hypermedia_in`): JSON, form-urlencoded (repeated
 * keys become lists) or YAML, by Content-Type; then lowstate: one chunk or a list of chunks,
 * each a mapping, with `arg` always a list. Every malformed input is a 400/415 with a reason.
 */
import { parse as parseYaml } from 'yaml';
import { NETAPI_ERR_BAD_BODY, NETAPI_ERR_BAD_LOWSTATE, NETAPI_ERR_MEDIA_TYPE } from './errors.js';

export type Chunk = Record<string, unknown>;

/** The media type without parameters, lower case (`''` when absent). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

const JSON_TYPES = new Set(['application/json', 'text/json', 'text/plain']);
const YAML_TYPES = new Set(['application/x-yaml', 'text/yaml', 'application/yaml', 'text/x-yaml']);
const FORM_TYPES = new Set(['application/x-www-form-urlencoded']);

/** Content types the server registers a parser for. */
export const BODY_TYPES = [...JSON_TYPES, ...YAML_TYPES, ...FORM_TYPES];

/** Form fields: a key given once is a string, a repeated key a list (CherryPy's behaviour). */
export function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(text);
  } catch (err) {
    throw new NETAPI_ERR_BAD_BODY(`malformed form body: ${(err as Error).message}`);
  }
  for (const [k, v] of params) {
    if (k === '__proto__' || k === 'constructor' || k === 'prototype')
      throw new NETAPI_ERR_BAD_BODY(`form field name ${JSON.stringify(k)} is not allowed`);
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev, v];
  }
  return { ...out };
}

/** Parses a body by media type; an empty body is `undefined`. */
export function parseBody(contentType: string | undefined, text: string): unknown {
  const type = mediaType(contentType);
  if (text.trim() === '') return undefined;
  if (JSON_TYPES.has(type) || type === '') {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new NETAPI_ERR_BAD_BODY(`malformed JSON body: ${(err as Error).message}`);
    }
  }
  if (YAML_TYPES.has(type)) {
    try {
      return parseYaml(text, { maxAliasCount: 100, merge: false });
    } catch (err) {
      throw new NETAPI_ERR_BAD_BODY(`malformed YAML body: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  if (FORM_TYPES.has(type)) return parseForm(text);
  throw new NETAPI_ERR_MEDIA_TYPE(type);
}

function isChunk(v: unknown): v is Chunk {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Lowstate from a parsed body: a mapping is one chunk, a list must hold only mappings.
 * `arg` becomes a list (`'a'` → `['a']`), as Salt's `lowdata_fmt` does.
 */
export function toLowstate(body: unknown): Chunk[] {
  if (body === undefined || body === null)
    throw new NETAPI_ERR_BAD_LOWSTATE('the request has no lowstate body');
  const chunks = Array.isArray(body) ? body : [body];
  if (chunks.length === 0) throw new NETAPI_ERR_BAD_LOWSTATE('the lowstate list is empty');
  if (chunks.length > 1000) throw new NETAPI_ERR_BAD_LOWSTATE('at most 1000 lowstate chunks per request');
  return chunks.map((c, i) => {
    if (!isChunk(c))
      throw new NETAPI_ERR_BAD_LOWSTATE(
        `lowstate chunk ${i} is not a mapping: send {"client": ..., "fun": ...} or a list of them`,
      );
    const out: Chunk = { ...c };
    if ('arg' in out && !Array.isArray(out.arg)) out.arg = out.arg === null ? [] : [out.arg];
    return out;
  });
}

/** One chunk from a body that must be a single mapping (login, hook credentials). */
export function toMapping(body: unknown): Chunk {
  if (body === undefined) return {};
  if (Array.isArray(body) && body.length === 1 && isChunk(body[0])) return body[0];
  if (!isChunk(body)) throw new NETAPI_ERR_BAD_BODY('the body must be a mapping');
  return body;
}
