/**
 * Parses Jinja expressions into a small tree, with Jinja's precedence: conditional
 * (`a if c else b`), `or`, `and`, `not`, comparisons (`== != < > <= >= in not-in is`), `~`,
 * `+ -`, `* / // %`, unary minus, `**`, filters (`|name(args)`), then attribute, item, slice,
 * method-call and call postfixes on literals, names, lists, dicts and parentheses. In the
 * reactor's sandbox (`sandbox: true`) slices and calls of anything but methods are refused.
 */
import { type ExprToken, lexExpression } from './expr-lexer.js';
import { pyFloat } from './numbers.js';
import { TemplateError } from './values.js';

export interface Call {
  args: Expr[];
  kwargs: Array<[string, Expr]>;
  /** `*args` and `**kwargs` spread into the call. */
  star?: Expr;
  starstar?: Expr;
}

export type Expr =
  | { k: 'lit'; v: unknown }
  | { k: 'name'; name: string }
  | { k: 'attr'; obj: Expr; name: string }
  | { k: 'item'; obj: Expr; index: Expr }
  | { k: 'slice'; obj: Expr; start?: Expr; stop?: Expr; step?: Expr }
  | ({ k: 'fcall'; fn: Expr } & Call)
  | ({ k: 'call'; obj: Expr; name: string } & Call)
  | ({ k: 'filter'; value: Expr; name: string } & Call)
  | ({ k: 'test'; value: Expr; name: string; negate: boolean } & Call)
  | { k: 'not'; value: Expr }
  | { k: 'neg'; value: Expr }
  | { k: 'bin'; op: string; left: Expr; right: Expr }
  | { k: 'cond'; test: Expr; yes: Expr; no?: Expr }
  | { k: 'list'; items: Expr[]; tuple?: boolean }
  | { k: 'dict'; items: Array<[Expr, Expr]> };

const COMPARE = new Set(['==', '!=', '<', '>', '<=', '>=']);
const LITERALS: Record<string, unknown> = {
  true: true,
  True: true,
  false: false,
  False: false,
  none: null,
  None: null,
};

export class ExprParser {
  #i = 0;
  constructor(
    readonly tokens: ExprToken[],
    readonly sandbox = true,
  ) {}

  static parse(src: string, sandbox = true): Expr {
    const p = new ExprParser(lexExpression(src), sandbox);
    const e = p.expression();
    p.end();
    return e;
  }

  /** `a, b` (a tuple without parentheses, as `set` and `for` take) or one expression. */
  tuple(): Expr {
    const first = this.expression();
    if (!this.isOp(',')) return first;
    const items = [first];
    while (this.isOp(',')) {
      this.next();
      if (this.done) break;
      items.push(this.expression());
    }
    return { k: 'list', items, tuple: true };
  }

  /** Where the parser is, for statements that parse a prefix and read the rest themselves. */
  get position(): number {
    return this.#i;
  }

  peek(offset = 0): ExprToken | undefined {
    return this.tokens[this.#i + offset];
  }

  next(): ExprToken {
    const t = this.tokens[this.#i++];
    if (!t) throw new TemplateError('unexpected end of expression');
    return t;
  }

  isOp(v: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t?.t === 'op' && t.v === v;
  }

  isName(v: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t?.t === 'name' && t.v === v;
  }

  expectOp(v: string): void {
    const t = this.next();
    if (t.t !== 'op' || t.v !== v) throw new TemplateError(`expected '${v}', got ${describe(t)}`);
  }

  name(): string {
    const t = this.next();
    if (t.t !== 'name') throw new TemplateError(`expected a name, got ${describe(t)}`);
    return t.v;
  }

  end(): void {
    const t = this.peek();
    if (t) throw new TemplateError(`unexpected ${describe(t)}`);
  }

  get done(): boolean {
    return this.#i >= this.tokens.length;
  }

  expression(): Expr {
    const value = this.or();
    if (this.isName('if')) {
      this.next();
      const test = this.or();
      if (this.isName('else')) {
        this.next();
        return { k: 'cond', test, yes: value, no: this.expression() };
      }
      return { k: 'cond', test, yes: value };
    }
    return value;
  }

  or(): Expr {
    let left = this.and();
    while (this.isName('or')) {
      this.next();
      left = { k: 'bin', op: 'or', left, right: this.and() };
    }
    return left;
  }

  and(): Expr {
    let left = this.not();
    while (this.isName('and')) {
      this.next();
      left = { k: 'bin', op: 'and', left, right: this.not() };
    }
    return left;
  }

  not(): Expr {
    if (this.isName('not')) {
      this.next();
      return { k: 'not', value: this.not() };
    }
    return this.compare();
  }

  compare(): Expr {
    let left = this.concat();
    for (;;) {
      const t = this.peek();
      if (t?.t === 'op' && COMPARE.has(t.v)) {
        this.next();
        left = { k: 'bin', op: t.v, left, right: this.concat() };
      } else if (this.isName('in')) {
        this.next();
        left = { k: 'bin', op: 'in', left, right: this.concat() };
      } else if (this.isName('not') && this.isName('in', 1)) {
        this.next();
        this.next();
        left = { k: 'bin', op: 'not in', left, right: this.concat() };
      } else if (this.isName('is')) {
        this.next();
        const negate = this.isName('not');
        if (negate) this.next();
        const name = this.name();
        let call: Call = { args: [], kwargs: [] };
        if (this.isOp('(')) call = this.callArgs();
        else if (!this.sandbox && this.startsOperand()) call = { args: [this.concat()], kwargs: [] };
        left = { k: 'test', value: left, name, negate, ...call };
      } else return left;
    }
  }

  /** Whether the next token can start an operand (a test's one argument without parentheses). */
  startsOperand(): boolean {
    const t = this.peek();
    if (!t) return false;
    if (t.t === 'str' || t.t === 'num') return true;
    if (t.t === 'name')
      return !['and', 'or', 'if', 'else', 'in', 'is', 'not', 'for', 'recursive'].includes(t.v);
    return t.v === '[' || t.v === '{' || t.v === '-';
  }

  concat(): Expr {
    let left = this.additive();
    while (this.isOp('~')) {
      this.next();
      left = { k: 'bin', op: '~', left, right: this.additive() };
    }
    return left;
  }

  additive(): Expr {
    let left = this.multiplicative();
    while (this.isOp('+') || this.isOp('-')) {
      const op = (this.next() as { v: string }).v;
      left = { k: 'bin', op, left, right: this.multiplicative() };
    }
    return left;
  }

  multiplicative(): Expr {
    let left = this.power();
    while (this.isOp('*') || this.isOp('/') || this.isOp('//') || this.isOp('%')) {
      const op = (this.next() as { v: string }).v;
      left = { k: 'bin', op, left, right: this.power() };
    }
    return left;
  }

  /** Jinja2's parse_pow: `**` binds operands that are unary expressions (`-2 ** 2` is 4). */
  power(): Expr {
    let left = this.unary();
    while (this.isOp('**')) {
      this.next();
      left = { k: 'bin', op: '**', left, right: this.unary() };
    }
    return left;
  }

  /** Jinja2's parse_unary: `-x|f` is `(-x)|f`; the inner operand takes no filters. */
  unary(withFilter = true): Expr {
    let value: Expr;
    if (this.isOp('-')) {
      this.next();
      value = { k: 'neg', value: this.unary(false) };
    } else if (this.isOp('+')) {
      this.next();
      value = this.unary(false);
    } else value = this.postfix(this.primary());
    return withFilter ? this.filters(value) : value;
  }

  filters(start: Expr): Expr {
    let value = start;
    while (this.isOp('|')) {
      this.next();
      const name = this.name();
      const call = this.isOp('(') ? this.callArgs() : { args: [], kwargs: [] };
      value = { k: 'filter', value, name, ...call };
    }
    return value;
  }

  callArgs(): Call {
    this.expectOp('(');
    const call: Call = { args: [], kwargs: [] };
    while (!this.isOp(')')) {
      const t = this.peek();
      if (t?.t === 'name' && this.isOp('=', 1)) {
        this.next();
        this.next();
        call.kwargs.push([t.v, this.expression()]);
      } else if (!this.sandbox && this.isOp('**')) {
        this.next();
        call.starstar = this.expression();
      } else if (!this.sandbox && this.isOp('*')) {
        this.next();
        call.star = this.expression();
      } else {
        if (call.kwargs.length > 0) throw new TemplateError('positional argument follows keyword argument');
        call.args.push(this.expression());
      }
      if (!this.isOp(')')) this.expectOp(',');
    }
    this.expectOp(')');
    return call;
  }

  postfix(start: Expr): Expr {
    let e = start;
    for (;;) {
      if (this.isOp('.')) {
        this.next();
        const t = this.next();
        if (t.t === 'num' && !t.float) {
          e = { k: 'item', obj: e, index: { k: 'lit', v: t.v } };
          continue;
        }
        if (t.t !== 'name') throw new TemplateError(`expected an attribute name, got ${describe(t)}`);
        if (this.isOp('(')) e = { k: 'call', obj: e, name: t.v, ...this.callArgs() };
        else e = { k: 'attr', obj: e, name: t.v };
      } else if (this.isOp('[')) {
        this.next();
        if (this.isOp(':') && this.sandbox)
          throw new TemplateError('slices are not supported in reactor templates');
        const index = this.isOp(':') ? undefined : this.expression();
        if (this.isOp(':')) {
          if (this.sandbox) throw new TemplateError('slices are not supported in reactor templates');
          e = this.sliceRest(e, index);
          continue;
        }
        this.expectOp(']');
        e = { k: 'item', obj: e, index: index as Expr };
      } else if (this.isOp('(') && !this.sandbox) {
        e = { k: 'fcall', fn: e, ...this.callArgs() };
      } else if (this.isOp('(')) {
        throw new TemplateError(
          'only the methods of strings and mappings can be called in reactor templates (the sandbox has no functions)',
        );
      } else return e;
    }
  }

  /** `[start:stop:step]` after `start` (the `:` is next). */
  sliceRest(obj: Expr, start: Expr | undefined): Expr {
    const part = (): Expr | undefined => (this.isOp(':') || this.isOp(']') ? undefined : this.expression());
    this.expectOp(':');
    const stop = part();
    let step: Expr | undefined;
    if (this.isOp(':')) {
      this.next();
      step = part();
    }
    this.expectOp(']');
    return { k: 'slice', obj, start, stop, step };
  }

  primary(): Expr {
    const t = this.next();
    if (t.t === 'str') {
      // adjacent string literals concatenate, as in Python
      let v = t.v;
      while (this.peek()?.t === 'str') v += (this.next() as { v: string }).v;
      return { k: 'lit', v };
    }
    if (t.t === 'num') return { k: 'lit', v: t.float ? pyFloat(t.v) : t.v };
    if (t.t === 'name') {
      if (Object.hasOwn(LITERALS, t.v)) return { k: 'lit', v: LITERALS[t.v] };
      return { k: 'name', name: t.v };
    }
    if (t.v === '(') {
      if (this.isOp(')')) {
        this.next();
        return { k: 'list', items: [], tuple: true };
      }
      const e = this.expression();
      if (this.isOp(',')) return this.sequenceRest(e, ')');
      this.expectOp(')');
      return e;
    }
    if (t.v === '[') {
      if (this.isOp(']')) {
        this.next();
        return { k: 'list', items: [] };
      }
      return this.sequenceRest(this.expression(), ']');
    }
    if (t.v === '{') {
      const items: Array<[Expr, Expr]> = [];
      while (!this.isOp('}')) {
        const key = this.expression();
        this.expectOp(':');
        items.push([key, this.expression()]);
        if (!this.isOp('}')) this.expectOp(',');
      }
      this.expectOp('}');
      return { k: 'dict', items };
    }
    throw new TemplateError(`unexpected ${describe(t)}`);
  }

  /** The rest of a list or tuple after its first item (tuples are lists here). */
  sequenceRest(first: Expr, close: string): Expr {
    const items = [first];
    while (this.isOp(',')) {
      this.next();
      if (this.isOp(close)) break;
      items.push(this.expression());
    }
    this.expectOp(close);
    return close === ')' ? { k: 'list', items, tuple: true } : { k: 'list', items };
  }
}

export function describe(t: ExprToken): string {
  if (t.t === 'str') return `string ${JSON.stringify(t.v)}`;
  if (t.t === 'num') return `number ${t.v}`;
  if (t.t === 'name') return `name '${t.v}'`;
  return `'${t.v}'`;
}
