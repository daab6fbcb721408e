/**
 * Parses a template's pieces into statement nodes (Jinja2's `parser.py` with the extensions
 * Salt loads: `do`, `loopcontrols`, `with`, and Salt's SerializerExtension tags `import_yaml`,
 * `import_json`, `import_text`, `load_yaml`, `load_json`, `load_text`). The reactor's sandbox
 * allows only `if`, `for` and `set name = expr`.
 */

import { lexExpression } from './expr-lexer.js';
import { type Expr, ExprParser } from './expr-parser.js';
import { lexTemplate, type Piece } from './lexer.js';
import { TemplateError } from './values.js';

interface At {
  line: number;
  col: number;
}
export type Node =
  | { k: 'text'; value: string }
  | ({ k: 'out'; expr: Expr } & At)
  | ({ k: 'if'; branches: Array<{ test: Expr; body: Node[]; line: number }>; else?: Node[] } & At)
  | ({
      k: 'for';
      targets: string[];
      iter: Expr;
      filter?: Expr;
      recursive: boolean;
      body: Node[];
      else?: Node[];
    } & At)
  | ({ k: 'set'; targets: string[]; value: Expr } & At)
  | ({ k: 'setattr'; obj: string; attr: string; value: Expr } & At)
  | ({ k: 'setblock'; name: string; body: Node[]; filters: Expr[] } & At)
  | ({ k: 'macro'; name: string; params: Array<[string, Expr | undefined]>; body: Node[] } & At)
  | ({ k: 'call'; call: Expr; params: Array<[string, Expr | undefined]>; body: Node[] } & At)
  | ({ k: 'import'; template: Expr; alias: string; withContext: boolean } & At)
  | ({ k: 'from'; template: Expr; names: Array<[string, string]>; withContext: boolean } & At)
  | ({ k: 'include'; template: Expr; ignoreMissing: boolean; withContext: boolean } & At)
  | ({ k: 'importdata'; fmt: 'yaml' | 'json' | 'text'; template: Expr; alias: string } & At)
  | ({ k: 'loaddata'; fmt: 'yaml' | 'json' | 'text'; name: string; body: Node[] } & At)
  | ({ k: 'do'; expr: Expr } & At)
  | ({ k: 'loopctl'; what: 'break' | 'continue' } & At)
  | ({ k: 'filterblock'; filters: Expr[]; body: Node[] } & At)
  | ({ k: 'with'; assigns: Array<[string, Expr]>; body: Node[] } & At)
  | ({ k: 'block'; name: string; scoped: boolean; required: boolean; body: Node[] } & At)
  | ({ k: 'extends'; template: Expr } & At);

export function at(err: unknown, where: At | number): TemplateError {
  const line = typeof where === 'number' ? where : where.line;
  const e = err instanceof TemplateError ? err : new TemplateError((err as Error)?.message ?? String(err));
  if (!e.line) {
    e.line = line;
    if (typeof where !== 'number') e.column = where.col;
  }
  return e;
}

function keyword(source: string): [string, string] {
  const m = /^([A-Za-z_]+)\s*([\s\S]*)$/.exec(source);
  return m ? [m[1] as string, (m[2] as string).trim()] : ['', source];
}

/** `x`, `k, v` or `(k, v)` before `in` / `=`. */
function targets(source: string, line: number): string[] {
  const names = source
    .replace(/^\(|\)$/g, '')
    .split(',')
    .map((s) => s.trim())
    .filter((s, i, all) => s !== '' || i < all.length - 1);
  for (const n of names)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) throw new TemplateError(`cannot assign to '${n}'`, line);
  return names;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class Parser {
  #i = 0;
  /** Block names seen so far: a template may define each once. */
  readonly #blocks = new Set<string>();
  constructor(
    readonly pieces: Piece[],
    readonly sandbox: boolean,
  ) {}

  expr(source: string, where: At): Expr {
    try {
      const p = new ExprParser(lexExpression(source), this.sandbox);
      const e = p.tuple();
      p.end();
      return e;
    } catch (err) {
      const e = at(err, where);
      e.kind = 'syntax';
      throw e;
    }
  }

  /** A prefix expression of `source`, and the words after it (`'x' as y with context`). */
  exprThen(source: string, where: At): { e: Expr; rest: string[] } {
    try {
      const tokens = lexExpression(source);
      const p = new ExprParser(tokens, this.sandbox);
      const e = p.expression();
      const rest = tokens.slice(p.position).map((t) => String(t.v));
      return { e, rest };
    } catch (err) {
      const e = at(err, where);
      e.kind = 'syntax';
      throw e;
    }
  }

  fail(message: string, where: At): TemplateError {
    const e = new TemplateError(message, where.line);
    e.column = where.col;
    e.kind = 'syntax';
    return e;
  }

  /** Parses nodes until one of `stops` (returned) or the end. */
  body(
    stops: readonly string[],
    opener?: { name: string } & At,
  ): { nodes: Node[]; stop?: Piece & { source: string } & At } {
    const nodes: Node[] = [];
    while (this.#i < this.pieces.length) {
      const p = this.pieces[this.#i++] as Piece;
      if (p.type === 'text') nodes.push({ k: 'text', value: p.value });
      else if (p.type === 'output') {
        if (!p.source) throw this.fail('expected an expression inside {{ }}', p);
        nodes.push({ k: 'out', expr: this.expr(p.source, p), line: p.line, col: p.col });
      } else {
        const [kw] = keyword(p.source);
        if (stops.includes(kw)) return { nodes, stop: p };
        nodes.push(this.statement(p));
      }
    }
    if (opener)
      throw this.fail(
        `unexpected end of template: the '${opener.name}' block opened on line ${opener.line} is not closed (expected ${stops.map((s) => `'${s}'`).join(' or ')})`,
        opener,
      );
    return { nodes };
  }

  block(name: string, end: string, where: At): Node[] {
    return this.body([end], { name, ...where }).nodes;
  }

  statement(p: Extract<Piece, { type: 'tag' }>): Node {
    const [kw, rest] = keyword(p.source);
    const w: At = { line: p.line, col: p.col };
    if (kw === 'if') return this.ifBlock(rest, w);
    if (kw === 'for') return this.forBlock(rest, w);
    if (kw === 'set') return this.setTag(rest, w);
    if (['elif', 'else', 'endif', 'endfor'].includes(kw))
      throw this.fail(`unexpected '${kw}': no block to close or continue here`, w);
    if (this.sandbox)
      throw this.fail(
        `unknown tag '${kw || p.source}': reactor templates support if/elif/else/endif, for/endfor and set`,
        w,
      );
    switch (kw) {
      case 'macro':
        return this.macro(rest, w);
      case 'call':
        return this.callBlock(rest, w);
      case 'import':
        return this.importTag(rest, w);
      case 'from':
        return this.fromTag(rest, w);
      case 'include': {
        const { e, rest: words } = this.exprThen(rest, w);
        const text = words.join(' ');
        return {
          k: 'include',
          template: e,
          ignoreMissing: /\bignore missing\b/.test(text),
          withContext: !/\bwithout context\b/.test(text),
          ...w,
        };
      }
      case 'import_yaml':
      case 'import_json':
      case 'import_text': {
        const { e, rest: words } = this.exprThen(rest, w);
        if (words[0] !== 'as' || !words[1] || !NAME.test(words[1]))
          throw this.fail(`expected '{% ${kw} "file" as name %}'`, w);
        return { k: 'importdata', fmt: kw.slice(7) as 'yaml', template: e, alias: words[1], ...w };
      }
      case 'load_yaml':
      case 'load_json':
      case 'load_text': {
        const m = /^as\s+([A-Za-z_][A-Za-z0-9_]*)$/.exec(rest);
        if (!m) throw this.fail(`expected '{% ${kw} as name %}'`, w);
        return {
          k: 'loaddata',
          fmt: kw.slice(5) as 'yaml',
          name: m[1] as string,
          body: this.block(kw, 'endload', w),
          ...w,
        };
      }
      case 'do':
        return { k: 'do', expr: this.expr(rest, w), ...w };
      case 'extends':
        return { k: 'extends', template: this.expr(rest, w), ...w };
      case 'block':
        return this.blockTag(rest, w);
      case 'break':
      case 'continue':
        return { k: 'loopctl', what: kw, ...w };
      case 'filter':
        return {
          k: 'filterblock',
          filters: this.filterChain(rest, w),
          body: this.block('filter', 'endfilter', w),
          ...w,
        };
      case 'with': {
        const assigns: Array<[string, Expr]> = [];
        for (const part of splitTopLevel(rest)) {
          const eq = part.indexOf('=');
          const name = part.slice(0, eq).trim();
          if (eq < 0 || !NAME.test(name)) throw this.fail("expected '{% with name = expression, ... %}'", w);
          assigns.push([name, this.expr(part.slice(eq + 1), w)]);
        }
        return { k: 'with', assigns, body: this.block('with', 'endwith', w), ...w };
      }
      default:
        if (kw.startsWith('end')) throw this.fail(`unexpected '${kw}': no block to close here`, w);
        throw this.fail(`unknown tag '${kw || p.source}'`, w);
    }
  }

  /** `{% block name [scoped] [required] %} ... {% endblock [name] %}`. */
  blockTag(rest: string, w: At): Node {
    const [name = '', ...mods] = rest.split(/\s+/);
    if (!NAME.test(name)) throw this.fail("expected '{% block name %}'", w);
    for (const m of mods)
      if (m !== 'scoped' && m !== 'required') throw this.fail(`unexpected '${m}' after the block name`, w);
    if (this.#blocks.has(name)) throw this.fail(`block '${name}' defined twice`, w);
    this.#blocks.add(name);
    const { nodes, stop } = this.body(['endblock'], { name: 'block', ...w });
    const closing = keyword((stop as { source: string }).source)[1];
    if (closing && closing !== name)
      throw this.fail(`mismatching name '${closing}' closing the block '${name}'`, stop as At);
    return {
      k: 'block',
      name,
      scoped: mods.includes('scoped'),
      required: mods.includes('required'),
      body: nodes,
      ...w,
    };
  }

  /** `name | f(x) | g` after `{% filter %}` / `{% set x | f %}`: the filters as call expressions. */
  filterChain(src: string, w: At): Expr[] {
    return splitTopLevel(src, '|').map((f) => this.expr(`__value__ | ${f}`, w));
  }

  setTag(rest: string, w: At): Node {
    const eq = rest.search(/(?<![=!<>])=(?!=)/);
    if (eq < 0) {
      if (this.sandbox)
        throw this.fail("block '{% set %}' is not supported: use '{% set name = expression %}'", w);
      const [name = '', ...filters] = splitTopLevel(rest, '|').map((s) => s.trim());
      if (!NAME.test(name)) throw this.fail(`cannot assign to '${name}'`, w);
      return {
        k: 'setblock',
        name,
        filters: filters.map((f) => this.expr(`__value__ | ${f}`, w)),
        body: this.block('set', 'endset', w),
        ...w,
      };
    }
    const lhs = rest.slice(0, eq).trim();
    const value = this.expr(rest.slice(eq + 1), w);
    const dotted = /^([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(lhs);
    if (dotted && !this.sandbox)
      return { k: 'setattr', obj: dotted[1] as string, attr: dotted[2] as string, value, ...w };
    return { k: 'set', targets: targets(lhs, w.line), value, ...w };
  }

  params(src: string, w: At): Array<[string, Expr | undefined]> {
    const out: Array<[string, Expr | undefined]> = [];
    for (const part of splitTopLevel(src)) {
      const eq = part.indexOf('=');
      const name = (eq < 0 ? part : part.slice(0, eq)).trim();
      if (!NAME.test(name)) throw this.fail(`bad parameter '${part.trim()}'`, w);
      out.push([name, eq < 0 ? undefined : this.expr(part.slice(eq + 1), w)]);
    }
    return out;
  }

  macro(rest: string, w: At): Node {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)$/.exec(rest);
    if (!m) throw this.fail("expected '{% macro name(params) %}'", w);
    return {
      k: 'macro',
      name: m[1] as string,
      params: this.params(m[2] as string, w),
      body: this.block('macro', 'endmacro', w),
      ...w,
    };
  }

  callBlock(rest: string, w: At): Node {
    let params: Array<[string, Expr | undefined]> = [];
    let src = rest;
    const m = /^\(([^)]*)\)\s*([\s\S]*)$/.exec(rest);
    if (m) {
      params = this.params(m[1] as string, w);
      src = m[2] as string;
    }
    const call = this.expr(src, w);
    if (call.k !== 'fcall' && call.k !== 'call') throw this.fail("expected '{% call macro(args) %}'", w);
    return { k: 'call', call, params, body: this.block('call', 'endcall', w), ...w };
  }

  importTag(rest: string, w: At): Node {
    const { e, rest: words } = this.exprThen(rest, w);
    if (words[0] !== 'as' || !words[1] || !NAME.test(words[1]))
      throw this.fail('expected \'{% import "file" as name %}\'', w);
    return {
      k: 'import',
      template: e,
      alias: words[1],
      withContext: words.slice(2).join(' ') === 'with context',
      ...w,
    };
  }

  fromTag(rest: string, w: At): Node {
    const { e, rest: words } = this.exprThen(rest, w);
    if (words[0] !== 'import') throw this.fail('expected \'{% from "file" import name %}\'', w);
    let text = words.slice(1).join(' ');
    let withContext = false;
    const ctx = /\s*\b(with|without) context$/.exec(text);
    if (ctx) {
      withContext = ctx[1] === 'with';
      text = text.slice(0, ctx.index);
    }
    const names: Array<[string, string]> = [];
    for (const part of text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const pm = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+as\s+([A-Za-z_][A-Za-z0-9_]*))?$/.exec(part);
      if (!pm) throw this.fail(`cannot import '${part}'`, w);
      names.push([pm[1] as string, (pm[2] ?? pm[1]) as string]);
    }
    return { k: 'from', template: e, names, withContext, ...w };
  }

  ifBlock(test: string, w: At): Node {
    const node: Extract<Node, { k: 'if' }> = { k: 'if', branches: [], ...w };
    let cond = this.expr(test, w);
    let condLine = w.line;
    for (;;) {
      const { nodes, stop } = this.body(['elif', 'else', 'endif'], { name: 'if', ...w });
      node.branches.push({ test: cond, body: nodes, line: condLine });
      const [kw, rest] = keyword((stop as { source: string }).source);
      if (kw === 'endif') return node;
      if (kw === 'else') {
        node.else = this.body(['endif'], { name: 'if', ...w }).nodes;
        return node;
      }
      condLine = (stop as At).line;
      cond = this.expr(rest, stop as At);
    }
  }

  forBlock(src: string, w: At): Node {
    const m = /^(.+?)\s+in\s+([\s\S]+)$/.exec(src);
    if (!m) throw this.fail("expected '{% for name in expression %}'", w);
    let filter: Expr | undefined;
    let iter: Expr;
    let recursive = false;
    try {
      const parser = new ExprParser(lexExpression(m[2] as string), this.sandbox);
      iter = parser.or();
      if (parser.isName('if')) {
        parser.next();
        filter = parser.expression();
      }
      if (parser.isName('recursive')) {
        parser.next();
        recursive = true;
      }
      parser.end();
    } catch (err) {
      const e = at(err, w);
      e.kind = 'syntax';
      throw e;
    }
    const { nodes, stop } = this.body(['else', 'endfor'], { name: 'for', ...w });
    const node: Extract<Node, { k: 'for' }> = {
      k: 'for',
      targets: targets((m[1] as string).trim(), w.line),
      iter,
      recursive,
      body: nodes,
      ...w,
    };
    if (filter) node.filter = filter;
    if (keyword((stop as { source: string }).source)[0] === 'else')
      node.else = this.body(['endfor'], { name: 'for', ...w }).nodes;
    return node;
  }
}

/** Splits at `sep` outside brackets and strings. */
function splitTopLevel(src: string, sep = ','): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (let i = 0; i < src.length; i++) {
    const ch = src[i] as string;
    if (quote) {
      if (ch === '\\') {
        cur += ch + (src[++i] ?? '');
        continue;
      }
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === sep && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim() !== '') out.push(cur);
  return out;
}

/** Parses a template's source into nodes. */
export function parseTemplate(source: string, sandbox: boolean): Node[] {
  let pieces: Piece[];
  try {
    pieces = lexTemplate(source);
  } catch (err) {
    const e = at(err, 0);
    e.kind = 'syntax';
    throw e;
  }
  return new Parser(pieces, sandbox).body([]).nodes;
}
