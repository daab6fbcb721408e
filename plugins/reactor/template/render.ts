/**
 * The reactor's Jinja subset: `{{ expr }}`, `{% if %}/{% elif %}/{% else %}/{% endif %}`,
 * `{% for x in y %}` (with `else`, an `if` filter and `loop.*`), `{% set x = expr %}` and
 * `{# comments #}`. It is interpreted here over plain data (no eval, no host objects); anything
 * outside the subset is a TemplateError naming its line.
 */
import { evaluate, Scope } from './evaluate.js';
import { lexExpression } from './expr-lexer.js';
import { type Expr, ExprParser } from './expr-parser.js';
import { lexTemplate, type Piece } from './lexer.js';
import { iterate, str, TemplateError, truthy } from './values.js';

type Node =
  | { k: 'text'; value: string }
  | { k: 'out'; expr: Expr; line: number }
  | { k: 'if'; branches: Array<{ test: Expr; body: Node[]; line: number }>; else?: Node[] }
  | { k: 'for'; targets: string[]; iter: Expr; filter?: Expr; body: Node[]; else?: Node[]; line: number }
  | { k: 'set'; targets: string[]; value: Expr; line: number };

/** Parses an expression, stamping errors with the line. */
function expr(source: string, line: number): Expr {
  try {
    return ExprParser.parse(source);
  } catch (err) {
    throw at(err, line);
  }
}

function at(err: unknown, line: number): TemplateError {
  if (err instanceof TemplateError) {
    if (!err.line) err.line = line;
    return err;
  }
  return new TemplateError((err as Error)?.message ?? String(err), line);
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
    .map((s) => s.trim());
  for (const n of names)
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) throw new TemplateError(`cannot assign to '${n}'`, line);
  return names;
}

class Parser {
  #i = 0;
  constructor(readonly pieces: Piece[]) {}

  /** Parses nodes until one of `stops` (returned) or the end. */
  body(stops: readonly string[], opener?: { name: string; line: number }): { nodes: Node[]; stop?: Piece } {
    const nodes: Node[] = [];
    while (this.#i < this.pieces.length) {
      const p = this.pieces[this.#i++] as Piece;
      if (p.type === 'text') nodes.push({ k: 'text', value: p.value });
      else if (p.type === 'output') {
        if (!p.source) throw new TemplateError('expected an expression inside {{ }}', p.line);
        nodes.push({ k: 'out', expr: expr(p.source, p.line), line: p.line });
      } else {
        const [kw] = keyword(p.source);
        if (stops.includes(kw)) return { nodes, stop: p };
        nodes.push(this.statement(p));
      }
    }
    if (opener)
      throw new TemplateError(
        `unexpected end of template: the '${opener.name}' block opened on line ${opener.line} is not closed (expected ${stops.map((s) => `'${s}'`).join(' or ')})`,
        opener.line,
      );
    return { nodes };
  }

  statement(p: Extract<Piece, { type: 'tag' }>): Node {
    const [kw, rest] = keyword(p.source);
    const line = p.line;
    if (kw === 'if') return this.ifBlock(rest, line);
    if (kw === 'for') return this.forBlock(rest, line);
    if (kw === 'set') {
      const eq = rest.search(/=(?!=)/);
      if (eq < 0)
        throw new TemplateError(
          "block '{% set %}' is not supported: use '{% set name = expression %}'",
          line,
        );
      return {
        k: 'set',
        targets: targets(rest.slice(0, eq).trim(), line),
        value: expr(rest.slice(eq + 1), line),
        line,
      };
    }
    if (['elif', 'else', 'endif', 'endfor'].includes(kw))
      throw new TemplateError(`unexpected '${kw}': no block to close or continue here`, line);
    throw new TemplateError(
      `unknown tag '${kw || p.source}': reactor templates support if/elif/else/endif, for/endfor and set`,
      line,
    );
  }

  ifBlock(test: string, line: number): Node {
    const node: Extract<Node, { k: 'if' }> = { k: 'if', branches: [] };
    let cond = expr(test, line);
    let condLine = line;
    for (;;) {
      const { nodes, stop } = this.body(['elif', 'else', 'endif'], { name: 'if', line });
      node.branches.push({ test: cond, body: nodes, line: condLine });
      const [kw, rest] = keyword((stop as Piece & { source: string }).source);
      if (kw === 'endif') return node;
      if (kw === 'else') {
        node.else = this.body(['endif'], { name: 'if', line }).nodes;
        return node;
      }
      condLine = (stop as Piece).line;
      cond = expr(rest, condLine);
    }
  }

  forBlock(src: string, line: number): Node {
    const m = /^(.+?)\s+in\s+([\s\S]+)$/.exec(src);
    if (!m) throw new TemplateError("expected '{% for name in expression %}'", line);
    const iterSrc = m[2] as string;
    let filter: Expr | undefined;
    // `for x in items if cond`: split at a top-level `if` (the expression parser stops there)
    const parser = new ExprParser(safeLex(iterSrc, line));
    let iter: Expr;
    try {
      iter = parser.or();
      if (parser.isName('if')) {
        parser.next();
        filter = parser.expression();
      }
      if (parser.isName('recursive')) throw new TemplateError('recursive loops are not supported', line);
      parser.end();
    } catch (err) {
      throw at(err, line);
    }
    const { nodes, stop } = this.body(['else', 'endfor'], { name: 'for', line });
    const node: Extract<Node, { k: 'for' }> = {
      k: 'for',
      targets: targets((m[1] as string).trim(), line),
      iter,
      body: nodes,
      line,
    };
    if (filter) node.filter = filter;
    if (keyword((stop as Piece & { source: string }).source)[0] === 'else')
      node.else = this.body(['endfor'], { name: 'for', line }).nodes;
    return node;
  }
}

function safeLex(src: string, line: number) {
  try {
    return lexExpression(src);
  } catch (err) {
    throw at(err, line);
  }
}

function assign(scope: Scope, names: string[], value: unknown, line: number): void {
  if (names.length === 1) {
    scope.set(names[0] as string, value);
    return;
  }
  const items = iterate(value);
  if (items.length !== names.length)
    throw new TemplateError(`cannot unpack ${items.length} values into ${names.length} names`, line);
  names.forEach((n, i) => {
    scope.set(n, items[i]);
  });
}

function run(nodes: Node[], scope: Scope, out: string[]): void {
  for (const n of nodes) {
    try {
      if (n.k === 'text') out.push(n.value);
      else if (n.k === 'out') out.push(str(evaluate(n.expr, scope)));
      else if (n.k === 'set') assign(scope, n.targets, evaluate(n.value, scope), n.line);
      else if (n.k === 'if') {
        const hit = n.branches.find((b) => {
          try {
            return truthy(evaluate(b.test, scope));
          } catch (err) {
            throw at(err, b.line);
          }
        });
        if (hit) run(hit.body, scope, out);
        else if (n.else) run(n.else, scope, out);
      } else {
        let items = iterate(evaluate(n.iter, scope));
        if (n.filter) {
          const filter = n.filter;
          items = items.filter((item) => {
            const s = new Scope(scope);
            assign(s, n.targets, item, n.line);
            return truthy(evaluate(filter, s));
          });
        }
        if (items.length === 0 && n.else) run(n.else, scope, out);
        items.forEach((item, i) => {
          const s = new Scope(scope);
          assign(s, n.targets, item, n.line);
          s.set('loop', {
            index: i + 1,
            index0: i,
            revindex: items.length - i,
            revindex0: items.length - i - 1,
            first: i === 0,
            last: i === items.length - 1,
            length: items.length,
          });
          run(n.body, s, out);
        });
      }
    } catch (err) {
      throw at(err, 'line' in n ? n.line : 0);
    }
  }
}

/** A parsed template, renderable many times. */
export interface Template {
  render(vars: Readonly<Record<string, unknown>>): string;
}

/** Parses `source`; throws a TemplateError (with its line) for anything outside the subset. */
export function compileTemplate(source: string): Template {
  let nodes: Node[];
  try {
    nodes = new Parser(lexTemplate(source)).body([]).nodes;
  } catch (err) {
    throw at(err, 0);
  }
  return {
    render(vars) {
      const scope = new Scope();
      for (const [k, v] of Object.entries(vars)) scope.set(k, v);
      const out: string[] = [];
      run(nodes, scope, out);
      return out.join('');
    },
  };
}

/** Parses and renders in one go. */
export function renderTemplate(source: string, vars: Readonly<Record<string, unknown>>): string {
  return compileTemplate(source).render(vars);
}
