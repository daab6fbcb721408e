/**
 * `highstate_doc.processor_markdown` as Salt 3006 runs it. Salt's version builds the chunk's
 * Markdown and then calls `.decode("utf-8")` on two str values, which Python 3 refuses
 * (`AttributeError: 'str' object has no attribute 'decode'`): it never returns. tsalt makes the
 * checks Salt makes on the way, in its order (the keys it reads, the requisite lists it walks,
 * the `file.stats` of a managed file and the size limit it compares), so a chunk that fails one
 * of them fails as Salt's does, and every other chunk fails with that AttributeError.
 */
import { type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { isDict, pyTruthy } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';

type Dict = Record<string, unknown>;

function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  return Array.isArray(v) ? 'list' : 'dict';
}

/** Python's `s[key]` on the chunk: its KeyError, or the TypeError of indexing a str or list by a str. */
function item(s: unknown, key: string): unknown {
  if (isDict(s)) {
    if (!(key in s)) throw pythonError('KeyError', `'${key}'`);
    return s[key];
  }
  if (typeof s === 'string') throw new SALT_ERR_INVOCATION("string indices must be integers, not 'str'");
  if (Array.isArray(s)) throw new SALT_ERR_INVOCATION('list indices must be integers or slices, not str');
  throw new SALT_ERR_INVOCATION(`'${typeName(s)}' object is not subscriptable`);
}

/** The requisite lists Salt walks: each entry must be a non-empty mapping. */
function checkRequisites(s: Dict): void {
  for (const key of ['watch', 'watch_in', 'require', 'require_in']) {
    const reqs = s[key] ?? [];
    if (!pyTruthy(reqs)) continue;
    let entries: unknown[];
    if (typeof reqs === 'string') entries = [...reqs];
    else if (Array.isArray(reqs)) entries = reqs;
    else if (isDict(reqs)) entries = Object.keys(reqs);
    else throw new SALT_ERR_INVOCATION(`'${typeName(reqs)}' object is not iterable`);
    for (const w of entries) {
      if (!isDict(w)) throw pythonError('AttributeError', `'${typeName(w)}' object has no attribute 'items'`);
      if (Object.keys(w).length === 0) throw pythonError('StopIteration', '');
    }
  }
}

/** Salt's `_format_markdown_system_file` up to what can fail: the file's stats and the size limit. */
async function checkSystemFile(ctx: ExecContext, filename: unknown, config: unknown): Promise<void> {
  const stats = await ctx.call('file.stats', [filename]);
  const size = isDict(stats) ? stats.size : undefined;
  if (!isDict(config))
    throw pythonError('AttributeError', `'${typeName(config)}' object has no attribute 'get'`);
  const limit = config.max_render_file_size;
  if (typeof size !== 'number' || typeof limit !== 'number')
    throw new SALT_ERR_INVOCATION(
      `'<=' not supported between instances of '${typeName(size)}' and '${typeName(limit)}'`,
    );
}

/** Salt's `processor_markdown(lowstate_item, config)`: raises as Salt's does (see the file's comment). */
export async function processorMarkdown(ctx: ExecContext, s: unknown, config: unknown): Promise<never> {
  const state = item(s, 'state');
  const fun = item(s, 'fun');
  item(s, '__id__');
  const chunk = s as Dict;
  checkRequisites(chunk);
  const stateFunction = `${String(state)}.${String(fun)}`;
  const idFull = `${String(state)}: ${String(chunk.__id__)}`;
  if (stateFunction === 'file.recurse' && idFull.includes('!doc_recurse')) {
    const found = await ctx.call('file.find', [], { path: chunk.name ?? null, type: 'f' });
    const files = Array.isArray(found) ? found : [];
    if (files.length < 10 || idFull.includes('!doc_recurse_force'))
      for (const f of files) await checkSystemFile(ctx, f, config);
  }
  if (stateFunction === 'file.blockreplace') {
    if (pyTruthy(chunk.content) && typeof chunk.content !== 'string')
      throw pythonError('AttributeError', `'${typeName(chunk.content)}' object has no attribute 'replace'`);
    if (pyTruthy(chunk.source) && typeof chunk.source !== 'string')
      throw new SALT_ERR_INVOCATION(`can only concatenate str (not "${typeName(chunk.source)}") to str`);
  }
  if (stateFunction === 'file.managed') await checkSystemFile(ctx, item(chunk, 'name'), config);
  item(chunk, 'name');
  throw pythonError('AttributeError', "'str' object has no attribute 'decode'");
}
