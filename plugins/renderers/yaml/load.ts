/**
 * Loads one YAML document as Salt's `SaltYamlSafeLoader` does (`salt/utils/yamlloader.py` over
 * PyYAML's SafeLoader): the `yaml` package parses (with positions), and this walk builds the
 * data with PyYAML's 1.1 resolver (resolve.ts), Salt's duplicate-key error ("found conflicting
 * ID"), merge keys (`<<`) and the safe tags only. Alias expansion is counted so an anchor bomb
 * stops at `maxNodes`. Every error carries the file, line and column. Continuation lines of
 * quoted scalars and flow collections may be under-indented, as PyYAML allows (reindent.ts).
 */
import {
  type Alias,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseAllDocuments,
  type Scalar,
  type YAMLMap,
} from 'yaml';
import { pyFloatRepr, SaltFloat } from '../../../kernel/util.js';
import { markOrdered } from '../../../modules/_ordered.js';
import { SALT_ERR_RENDER_LIMIT, SALT_ERR_RENDER_SYNTAX } from '../errors.js';
import { renderError } from '../where.js';
import { splitAnchorNames } from './anchors.js';
import { type LineShifts, reindentAt } from './reindent.js';
import { constructBool, constructFloat, constructInt, implicitTag, resolvePlain } from './resolve.js';

export interface YamlLoadOptions {
  readonly path: string;
  readonly chain?: readonly string[];
  /** Nodes built, aliases counted at their full size (default 1,000,000). */
  readonly maxNodes?: number;
  /** Mark each mapping as ordered, as the YAML renderer's OrderedDicts (`ordered.ts`). */
  readonly ordered?: boolean;
  /**
   * A duplicate key's value from the one before it and the new one (yamlex's merge); without
   * it a duplicate is Salt's "found conflicting ID" error. `keyTag` is the key's own tag.
   */
  readonly merge?: (before: unknown, value: unknown, keyTag: string | undefined) => unknown;
  /** Local tags (`!aggregate`): the node is built untagged (a scalar resolved as if plain), then passed through. */
  readonly tags?: ReadonlyMap<string, (value: unknown) => unknown>;
}

const Y = 'tag:yaml.org,2002:';

class Builder {
  readonly anchors = new Map<string, { value: unknown; size: number }>();
  built = 0;
  constructor(
    readonly source: string,
    readonly lines: LineCounter,
    readonly o: YamlLoadOptions,
    readonly maxNodes: number,
    readonly shifts: LineShifts,
  ) {}

  fail(offset: number | undefined, message: string, Cls = SALT_ERR_RENDER_SYNTAX): Error {
    const pos = offset === undefined ? { line: 0, col: 0 } : this.lines.linePos(offset);
    const shift = this.shifts.get(pos.line - 1) ?? 0;
    if (shift) pos.col = Math.max(1, pos.col - shift);
    return renderError(
      Cls,
      { path: this.o.path, line: pos.line, column: pos.col, source: this.source, chain: this.o.chain },
      message,
    );
  }

  count(n: number, node: Node | Alias): void {
    this.built += n;
    if (this.built > this.maxNodes)
      throw this.fail(
        node.range?.[0],
        `the document expands to more than ${this.maxNodes} nodes (an alias bomb?): stopped`,
        SALT_ERR_RENDER_LIMIT,
      );
  }

  /** The node's value and its expanded size. */
  build(node: Node | Alias | null | undefined): { value: unknown; size: number } {
    if (node == null) return { value: null, size: 1 };
    if (isAlias(node)) {
      const hit = this.anchors.get(node.source);
      if (!hit) throw this.fail(node.range?.[0], `found undefined alias '${node.source}'`);
      this.count(hit.size, node);
      return hit;
    }
    const out = this.buildNode(node);
    if (node.anchor) this.anchors.set(node.anchor, out);
    return out;
  }

  /** Where a node's tag starts (the node's range starts after it). */
  tagAt(node: Node): number | undefined {
    const at = node.range?.[0];
    if (at === undefined || !node.tag) return at;
    const i = this.source.lastIndexOf('!', at);
    return i === -1 ? at : i;
  }

  buildNode(node: Node): { value: unknown; size: number } {
    const custom = node.tag ? this.o.tags?.get(node.tag) : undefined;
    if (custom) {
      const tag = node.tag;
      node.tag = undefined;
      if (isScalar(node)) this.count(1, node);
      const built = isScalar(node)
        ? { value: resolvePlain(node.source ?? String(node.value ?? '')), size: 1 }
        : this.buildNode(node);
      node.tag = tag;
      return { value: custom(built.value), size: built.size };
    }
    const tag = node.tag;
    const at = this.tagAt(node);
    if (isScalar(node)) {
      this.count(1, node);
      return { value: this.scalar(node), size: 1 };
    }
    if (isSeq(node)) {
      if (tag && tag !== `${Y}seq` && tag !== `${Y}omap` && tag !== `${Y}pairs`)
        throw this.fail(at, `could not determine a constructor for the tag '${tag}'`);
      this.count(1, node);
      const value: unknown[] = [];
      let size = 1;
      for (const item of node.items) {
        const b = this.build(item as Node);
        value.push(b.value);
        size += b.size;
      }
      if (tag === `${Y}omap`) return { value: Object.assign({}, ...value.map((v) => v as object)), size };
      return { value, size };
    }
    if (isMap(node)) {
      if (tag && tag !== `${Y}map` && tag !== `${Y}set`)
        throw this.fail(at, `could not determine a constructor for the tag '${tag}'`);
      this.count(1, node);
      return this.mapping(node);
    }
    throw this.fail(at, 'unexpected YAML node');
  }

  scalar(node: Scalar): unknown {
    const text = node.source ?? String(node.value ?? '');
    const tag = node.tag;
    if (!tag || tag === '!') {
      return node.type === 'PLAIN' && tag !== '!' ? resolvePlain(text) : text;
    }
    const at = this.tagAt(node);
    const want = (kind: string, ok: boolean) => {
      if (!ok) throw this.fail(at, `cannot read ${JSON.stringify(text)} as !!${kind}`);
    };
    switch (tag) {
      case `${Y}str`:
      case `${Y}timestamp`:
        return text;
      case `${Y}int`:
        want('int', implicitTag(text) === 'int');
        return constructInt(text);
      case `${Y}float`:
        want('float', implicitTag(text) === 'float' || implicitTag(text) === 'int');
        return constructFloat(text.replace(/^([-+]?)0+(?=\d)/, '$1'));
      case `${Y}bool`:
        want('bool', implicitTag(text) === 'bool');
        return constructBool(text);
      case `${Y}null`:
        return null;
      case `${Y}binary`:
        return Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('latin1');
      default:
        throw this.fail(at, `could not determine a constructor for the tag '${tag}'`);
    }
  }

  /** The key's text, and its identity under Python's `==` (1, 1.0 and true are one key; 1 and '1' two). */
  key(node: unknown): { key: string; id: string; at: number | undefined } {
    const n = node as Node | Alias | null;
    const at = n?.range?.[0];
    if (n && (isMap(n) || isSeq(n) || (isAlias(n) && typeof this.anchors.get(n.source)?.value === 'object')))
      throw this.fail(
        at,
        'found unacceptable key (a mapping or list): invalid YAML, possibly a {{ }} left unrendered (double curly-brace)',
      );
    const { value } = this.build(n);
    if (value instanceof SaltFloat) return { key: pyFloatRepr(value.value), id: `n:${value.value}`, at };
    if (value !== null && typeof value === 'object')
      throw this.fail(at, 'found unacceptable key (a mapping or list): invalid YAML');
    const id = typeof value === 'string' ? `s:${value}` : value === null ? 'None' : `n:${Number(value)}`;
    return {
      key: value === null ? 'None' : typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value),
      id,
      at,
    };
  }

  /** Salt's construct_mapping after flatten_mapping: merged items first, explicit keys win. */
  mapping(node: YAMLMap): { value: unknown; size: number } {
    const explicit: Array<{ key: unknown; value: unknown }> = [];
    const merged: Array<{ key: string; value: unknown; at: number | undefined }> = [];
    let size = 1;
    for (const pair of node.items) {
      const k = pair.key as Node | null;
      if (k && isScalar(k) && k.type === 'PLAIN' && !k.tag && k.source === '<<') {
        for (const source of this.mergeSources(pair.value as Node)) merged.push(...source);
        continue;
      }
      explicit.push({ key: pair.key, value: pair.value });
    }
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    const explicitKeys = explicit.map((e) => this.key(e.key));
    const names = new Set(explicitKeys.map((k) => k.key));
    const put = (key: string, id: string, at: number | undefined, value: unknown, keyTag?: string) => {
      if (seen.has(id) && this.o.merge) {
        out[key] = this.o.merge(out[key], value, keyTag);
        return;
      }
      if (seen.has(id)) throw this.fail(at, `found conflicting ID '${key}'`);
      seen.add(id);
      out[key] = value;
    };
    for (const m of merged) if (!names.has(m.key)) put(m.key, `s:${m.key}`, m.at, m.value);
    explicit.forEach((e, i) => {
      const k = explicitKeys[i] as { key: string; id: string; at: number | undefined };
      const b = this.build(e.value as Node);
      size += b.size;
      put(k.key, k.id, k.at, b.value, (e.key as Node | null)?.tag ?? undefined);
    });
    return { value: this.o.ordered ? markOrdered(out) : out, size };
  }

  /** The (key, value) lists a `<<` value merges in: a mapping, or a list of them (last first). */
  mergeSources(
    value: Node | Alias | null,
  ): Array<Array<{ key: string; value: unknown; at: number | undefined }>> {
    const one = (n: Node | Alias | null) => {
      const b = this.build(n);
      if (b.value === null || typeof b.value !== 'object' || Array.isArray(b.value))
        throw this.fail(n?.range?.[0], 'expected a mapping or list of mappings for merging');
      return Object.entries(b.value as Record<string, unknown>).map(([key, v]) => ({
        key,
        value: v,
        at: n?.range?.[0],
      }));
    };
    if (value && isSeq(value)) return (value.items as Node[]).map((i) => one(i)).reverse();
    return [one(value)];
  }
}

/** Repairs of under-indented continuation lines tried before the first error is reported. */
const MAX_REINDENTS = 200;

function parse(source: string, lines: LineCounter) {
  const docs = parseAllDocuments(source, {
    schema: 'failsafe',
    lineCounter: lines,
    uniqueKeys: false,
    keepSourceTokens: false,
    prettyErrors: false,
    strict: false,
  });
  return Array.isArray(docs) ? docs : [];
}

/** One YAML document as Salt loads it; an empty document is `null`. */
export function loadYaml(source: string, o: YamlLoadOptions): unknown {
  const shifts: LineShifts = new Map();
  let lines = new LineCounter();
  let text = splitAnchorNames(source, (offset, message) => {
    lines.addNewLine(0);
    for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
    return new Builder(source, lines, o, 0, shifts).fail(offset, message);
  });
  let list = parse(text, lines);
  for (let n = 0; n < MAX_REINDENTS; n++) {
    const err = list.find((d) => d.errors.length > 0)?.errors[0];
    const fixed = err ? reindentAt(text, err.pos[0], shifts) : null;
    if (fixed === null) break;
    text = fixed;
    lines = new LineCounter();
    list = parse(text, lines);
  }
  const b = new Builder(source, lines, o, o.maxNodes ?? 1_000_000, shifts);
  for (const doc of list) {
    const err = doc.errors[0];
    if (err) {
      const message = err.message
        .replace(/ at line \d+, column \d+[\s\S]*$/, '')
        .replace(
          /^Tabs are not allowed as indentation/,
          'Illegal tab character (tabs are not allowed as indentation)',
        );
      throw b.fail(err.pos[0], message);
    }
  }
  if (list.length > 1)
    throw b.fail(list[1]?.range[0], 'expected a single document in the stream, but found another document');
  const doc = list[0];
  if (!doc || doc.contents == null) return null;
  return b.build(doc.contents as Node).value;
}
