/**
 * Runs parsed templates (Jinja2's compiled `Template.render` with Salt's environment): output,
 * `if`, `for` (with `loop`, `else`, an `if` filter, `break`/`continue`), `set` (also `ns.x =`
 * and blocks), macros with `caller`, `call` blocks, `import`/`from ... import`/`include`, Salt's
 * `import_yaml`/`import_json`/`import_text` and `load_*` blocks, `do`, `filter` and `with`. Every
 * unit of work is counted against the render's bounds. `compileTemplate` is the reactor's
 * synchronous sandbox over the same engine.
 */
import { loadJson } from '../json-renderer.js';
import { loadYaml } from '../yaml/load.js';
import { collectBlocks, type DocFrame, frameOf, newFrame, topFrame } from './blocks.js';
import { callArgs, callValue, evaluate, type Runtime, Scope } from './evaluate.js';
import type { Expr } from './expr-parser.js';
import { FILTERS, type Fn, TESTS } from './filters.js';
import { loopState, loopVariable } from './loop.js';
import { at, type Node, parseTemplate } from './parse.js';
import {
  type Gen,
  isMap,
  iterate,
  Macro,
  runAsync,
  runSync,
  str,
  TemplateError,
  truthy,
  tuple,
  Undefined,
} from './values.js';

/** A template to render: its nodes and where they came from. */
export interface Compiled {
  readonly path: string;
  readonly source: string;
  readonly nodes: Node[];
  /** Includes/imports that led here, outermost first (`file, line N`). */
  readonly chain: readonly string[];
}

/** A file `{% import %}`/`{% include %}` asked for. */
export interface LoadedTemplate {
  readonly source: string;
  readonly path: string;
}

/** What a render runs with: tables, globals, the file loader and the bounds. */
export interface TemplateEnv {
  readonly sandbox: boolean;
  readonly filters: Readonly<Record<string, Fn>>;
  readonly tests: Runtime['tests'];
  readonly globals: Readonly<Record<string, unknown>>;
  /** Loads `name` (already resolved against `tpldir` or the importing file's folder). */
  readonly load?: (name: string) => Promise<LoadedTemplate | undefined>;
  /** The rendered template's folder on the file server: where `./x` and `../x` start. */
  readonly tpldir?: string;
  readonly maxDepth: number;
  readonly maxIterations: number;
  readonly maxOutput: number;
  /** Jinja2's default: one trailing newline of each template is dropped. */
  readonly dropTrailingNewline: boolean;
  checkDeadline(): void;
}

class Signal {
  constructor(readonly what: 'break' | 'continue') {}
}

interface RunState {
  iterations: number;
  macroDepth: number;
  output: number;
}

class Run implements Runtime {
  readonly state: RunState = { iterations: 0, macroDepth: 0, output: 0 };
  readonly cache = new Map<string, Compiled>();
  /** Salt's loader state: the folder `./x` starts from, moved by each new non-relative load. */
  tpldir: string | undefined;
  readonly loadedNames = new Set<string>();
  readonly sandbox: boolean;
  readonly filters: Runtime['filters'];
  readonly tests: Runtime['tests'];
  constructor(readonly env: TemplateEnv) {
    this.sandbox = env.sandbox;
    this.tpldir = env.tpldir;
    this.filters = env.filters;
    this.tests = env.tests;
  }

  tick(): void {
    const n = ++this.state.iterations;
    if (n > this.env.maxIterations) {
      const e = new TemplateError(
        `the template ran more than ${this.env.maxIterations} loop turns and calls (a loop that never ends?): stopped`,
      );
      e.kind = 'limit';
      throw e;
    }
    if ((n & 1023) === 0) this.env.checkDeadline();
  }

  emit(out: string[], text: string): void {
    this.state.output += text.length;
    if (this.state.output > this.env.maxOutput) {
      const e = new TemplateError(
        `the rendered text is larger than ${this.env.maxOutput} characters: stopped`,
      );
      e.kind = 'limit';
      throw e;
    }
    out.push(text);
  }
}

/** Macro calls nested deeper than this stop the render (Jinja2 on Python stops near here too). */
export const MAX_MACRO_DEPTH = 100;

/** Errors from below (a bound, a stack overflow) as TemplateErrors that keep their kind. */
function asTemplateError(err: unknown): TemplateError | undefined {
  if (err instanceof TemplateError) return err;
  const saltErr = err as { code?: string; details?: { reason?: string } };
  if (saltErr?.code === 'SALT_ERR_RENDER_LIMIT' || err instanceof RangeError) {
    const e = new TemplateError(
      err instanceof RangeError
        ? `the template nests too deeply (${err.message})`
        : (saltErr.details?.reason ?? String(err)),
    );
    e.kind = 'limit';
    return e;
  }
  return undefined;
}

function located(err: unknown, n: { line: number; col: number }, tpl: Compiled): unknown {
  if (err instanceof Signal) return err;
  const e = asTemplateError(err) ?? at(err, n);
  if (!e.line) {
    e.line = n.line;
    e.column = n.col;
  }
  if (e.path === undefined) {
    e.path = tpl.path;
    e.source = tpl.source;
    e.chain = tpl.chain;
  }
  return e;
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

/**
 * Resolves `./x` and `../x` as Salt's loader does: against `tpldir`, the rendered template's
 * folder until a template is first loaded by a plain name, then that template's folder (Salt's
 * loader keeps it in the environment); or the importing file's folder when the render has no
 * `tpldir`. A path that climbs above the file server's top is not found.
 */
function resolveName(name: string, from: string, tpldir: string | undefined): string | undefined {
  if (!name.startsWith('./') && !name.startsWith('../')) return name;
  const base =
    tpldir !== undefined
      ? tpldir.split('/').filter((p) => p !== '' && p !== '.')
      : from
          .replace(/^salt:\/\//, '')
          .split('/')
          .slice(0, -1);
  for (const part of name.split('/')) {
    if (part === '..') {
      if (tpldir !== undefined && base.length === 0) return undefined;
      base.pop();
    } else if (part !== '.' && part !== '') base.push(part);
  }
  return base.join('/');
}

function* loadChild(
  run: Run,
  tpl: Compiled,
  nameValue: unknown,
  n: { line: number },
  missingOk = false,
): Gen<Compiled | undefined> {
  const name = str(nameValue);
  if (!run.env.load) throw new TemplateError(`cannot load '${name}': this render has no file loader`);
  const chain = [...tpl.chain, `${tpl.path}, line ${n.line}`];
  if (chain.length > run.env.maxDepth) {
    const e = new TemplateError(
      `includes/imports nested deeper than ${run.env.maxDepth} levels loading '${name}' (a file that includes itself?)`,
    );
    e.kind = 'limit';
    throw e;
  }
  const resolved = resolveName(name, tpl.path, run.tpldir);
  if (resolved === name && run.tpldir !== undefined && !run.loadedNames.has(name)) {
    run.loadedNames.add(name);
    run.tpldir = name
      .replace(/^salt:\/\//, '')
      .split('/')
      .slice(0, -1)
      .join('/');
  }
  let file: LoadedTemplate | undefined;
  try {
    if (resolved !== undefined) file = (yield run.env.load(resolved)) as LoadedTemplate | undefined;
  } catch (err) {
    const e = new TemplateError(
      `cannot load template '${resolved}': ${(err as Error)?.message ?? String(err)}`,
    );
    e.kind = 'missing';
    throw e;
  }
  if (!file) {
    if (missingOk) return undefined;
    const e = new TemplateError(`template '${resolved ?? name}' not found`);
    e.kind = 'missing';
    throw e;
  }
  const key = `${file.path}\0${chain.join('\0')}`;
  let child = run.cache.get(key);
  if (!child) {
    let source = file.source;
    if (run.env.dropTrailingNewline) source = source.replace(/\r?\n$/, '');
    child = { path: file.path, source: file.source, nodes: [], chain };
    try {
      child = { ...child, nodes: parseTemplate(source, run.sandbox) };
    } catch (err) {
      throw located(err, { line: 0, col: 0 }, child);
    }
    run.cache.set(key, child);
  }
  return child;
}

/** Renders a template as a module: its output, and its top-level names (macros, `set`s). */
function* renderModule(
  run: Run,
  child: Compiled,
  parent: Scope,
): Gen<{ text: string; exports: Record<string, unknown> }> {
  const scope = new Scope(parent);
  const out: string[] = [];
  const frame = yield* runDocument(run, child, scope, out);
  const exports: Record<string, unknown> = {};
  for (const [k, v] of scope.vars) if (!k.startsWith('_') && v !== frame.self) exports[k] = v;
  return { text: out.join(''), exports };
}

function parseData(
  fmt: 'yaml' | 'json' | 'text',
  text: string,
  path: string,
  chain: readonly string[],
): unknown {
  if (fmt === 'text') return text;
  if (fmt === 'json') return loadJson(text, { path, chain });
  return loadYaml(text, { path, chain }) ?? {};
}

function makeMacro(
  run: Run,
  tpl: Compiled,
  name: string,
  params: Array<[string, Expr | undefined]>,
  body: Node[],
  closure: Scope,
): Macro {
  return new Macro(
    name,
    function* (args, kwargs, caller) {
      if (++run.state.macroDepth > MAX_MACRO_DEPTH) {
        const e = new TemplateError(`macro '${name}' recursed deeper than ${MAX_MACRO_DEPTH} calls: stopped`);
        e.kind = 'limit';
        throw e;
      }
      try {
        const scope = new Scope(closure);
        const extraKw: Record<string, unknown> = { ...kwargs };
        for (const [i, [p, dflt]] of params.entries()) {
          if (i < args.length) scope.set(p, args[i]);
          else if (Object.hasOwn(extraKw, p)) scope.set(p, extraKw[p]);
          else if (dflt) scope.set(p, yield* evaluate(dflt, scope, run));
          else scope.set(p, new Undefined(`parameter '${p}' was not provided to macro '${name}'`));
          delete extraKw[p];
        }
        scope.set('varargs', tuple(args.slice(params.length)));
        scope.set('kwargs', extraKw);
        if (caller) scope.set('caller', caller);
        const out: string[] = [];
        yield* runNodes(run, tpl, body, scope, out);
        return out.join('');
      } finally {
        run.state.macroDepth--;
      }
    },
    params.map(([p]) => p),
  );
}

/** Adds `tpl`'s blocks below the ones already on the frame's stacks (a child's come first). */
function addBlocks(run: Run, frame: DocFrame<Compiled>, tpl: Compiled): void {
  for (const node of collectBlocks(tpl.nodes)) {
    const stack = frame.blocks.get(node.name);
    if (stack) stack.push({ node, tpl });
    else {
      frame.blocks.set(node.name, [{ node, tpl }]);
      frame.self[node.name] = new Macro(node.name, () => renderBlock(run, frame, node.name, 0, frame.top));
    }
  }
}

/**
 * Renders a whole document: `tpl`, then, while it (or its parent) `extends` another template, that
 * one, with the blocks of every level stacked most derived first. Returns the frame.
 */
function* runDocument(run: Run, tpl: Compiled, scope: Scope, out: string[]): Gen<DocFrame<Compiled>> {
  const frame = newFrame<Compiled>(scope);
  scope.set('self', frame.self);
  addBlocks(run, frame, tpl);
  let current = tpl;
  for (;;) {
    yield* runNodes(run, current, current.nodes, scope, out);
    const parent = frame.parent;
    if (!parent) return frame;
    out.length = frame.cut;
    frame.parent = undefined;
    addBlocks(run, frame, parent);
    current = parent;
  }
}

/** Block `name` as level `idx` of the stack defines it, over `base` (with `super()` for the next level). */
function* renderBlock(
  run: Run,
  frame: DocFrame<Compiled>,
  name: string,
  idx: number,
  base: Scope,
): Gen<string> {
  const stack = frame.blocks.get(name) ?? [];
  const def = stack[idx];
  if (!def) throw new TemplateError(`there is no parent block called '${name}'.`);
  if (def.node.required) throw new TemplateError(`Required block '${name}' not found`);
  const s = new Scope(base);
  s.set(
    'super',
    idx + 1 < stack.length
      ? new Macro('super', () => renderBlock(run, frame, name, idx + 1, base))
      : new Undefined(`there is no parent block called '${name}'.`),
  );
  const buf: string[] = [];
  yield* runNodes(run, def.tpl as Compiled, def.node.body, s, buf);
  return buf.join('');
}

/** A `{% for %}` over `value` at `depth` (a `recursive` loop's `loop(items)` goes one deeper). */
function* runFor(
  run: Run,
  tpl: Compiled,
  n: Extract<Node, { k: 'for' }>,
  scope: Scope,
  value: unknown,
  depth: number,
  out: string[],
): Gen<void> {
  let items = iterate(value);
  if (n.filter) {
    const kept: unknown[] = [];
    for (const item of items) {
      const s = new Scope(scope);
      assign(s, n.targets, item, n.line);
      if (truthy(yield* evaluate(n.filter, s, run))) kept.push(item);
    }
    items = kept;
  }
  if (items.length === 0 && n.else) return yield* runNodes(run, tpl, n.else, scope, out);
  const recurse = n.recursive
    ? new Macro('loop', function* (args) {
        const buf: string[] = [];
        yield* runFor(run, tpl, n, scope, args[0], depth + 1, buf);
        return buf.join('');
      })
    : undefined;
  const state = loopState();
  for (let i = 0; i < items.length; i++) {
    run.tick();
    const s = new Scope(scope);
    assign(s, n.targets, items[i], n.line);
    s.set('loop', loopVariable(items, i, depth, state, recurse));
    try {
      yield* runNodes(run, tpl, n.body, s, out);
    } catch (err) {
      if (err instanceof Signal) {
        if (err.what === 'break') break;
        continue;
      }
      throw err;
    }
  }
}

/** After `{% extends %}`, a document's own top-level output is not rendered. */
const DROPPED_AFTER_EXTENDS = new Set<Node['k']>(['text', 'out', 'block', 'include', 'call', 'filterblock']);

function* runNodes(run: Run, tpl: Compiled, nodes: Node[], scope: Scope, out: string[]): Gen<void> {
  const frame = topFrame<Compiled>(scope);
  for (const n of nodes) {
    if (frame?.parent && DROPPED_AFTER_EXTENDS.has(n.k)) continue;
    if (n.k === 'text') {
      run.emit(out, n.value);
      continue;
    }
    try {
      yield* runNode(run, tpl, n, scope, out);
    } catch (err) {
      throw located(err, n, tpl);
    }
  }
}

function* runNode(
  run: Run,
  tpl: Compiled,
  n: Exclude<Node, { k: 'text' }>,
  scope: Scope,
  out: string[],
): Gen<void> {
  switch (n.k) {
    case 'out':
      run.emit(out, str(yield* evaluate(n.expr, scope, run)));
      return;
    case 'set':
      assign(scope, n.targets, yield* evaluate(n.value, scope, run), n.line);
      return;
    case 'setattr': {
      const obj = scope.get(n.obj);
      if (!isMap(obj)) throw new TemplateError(`cannot assign attribute on '${n.obj}': not a namespace`);
      obj[n.attr] = yield* evaluate(n.value, scope, run);
      return;
    }
    case 'setblock': {
      const buf: string[] = [];
      yield* runNodes(run, tpl, n.body, new Scope(scope), buf);
      scope.set(n.name, yield* applyFilters(run, n.filters, buf.join(''), scope));
      return;
    }
    case 'if':
      for (const b of n.branches) {
        let hit: boolean;
        try {
          hit = truthy(yield* evaluate(b.test, scope, run));
        } catch (err) {
          throw at(err, b.line);
        }
        if (hit) return yield* runNodes(run, tpl, b.body, scope, out);
      }
      if (n.else) yield* runNodes(run, tpl, n.else, scope, out);
      return;
    case 'for':
      return yield* runFor(run, tpl, n, scope, yield* evaluate(n.iter, scope, run), 1, out);
    case 'loopctl':
      throw new Signal(n.what);
    case 'do':
      yield* evaluate(n.expr, scope, run);
      return;
    case 'macro':
      scope.set(n.name, makeMacro(run, tpl, n.name, n.params, n.body, scope));
      return;
    case 'call': {
      const caller = makeMacro(run, tpl, 'caller', n.params, n.body, scope);
      const c = n.call as Extract<Expr, { k: 'fcall' | 'call' }>;
      const [args, kwargs] = yield* callArgs(c, scope, run);
      const fn =
        c.k === 'fcall'
          ? yield* evaluate(c.fn, scope, run)
          : yield* evaluate({ k: 'attr', obj: c.obj, name: c.name }, scope, run);
      run.emit(out, str(yield* callValue(fn, args, kwargs, run, caller)));
      return;
    }
    case 'include': {
      const child = yield* loadChild(run, tpl, yield* evaluate(n.template, scope, run), n, n.ignoreMissing);
      if (!child) return;
      const { text } = yield* renderModule(run, child, n.withContext ? scope : globalScope(scope));
      run.emit(out, text);
      return;
    }
    case 'import': {
      const child = yield* loadChild(run, tpl, yield* evaluate(n.template, scope, run), n);
      const { exports } = yield* renderModule(
        run,
        child as Compiled,
        n.withContext ? scope : globalScope(scope),
      );
      scope.set(n.alias, exports);
      return;
    }
    case 'from': {
      const child = (yield* loadChild(run, tpl, yield* evaluate(n.template, scope, run), n)) as Compiled;
      const { exports } = yield* renderModule(run, child, n.withContext ? scope : globalScope(scope));
      for (const [name, alias] of n.names) {
        if (!Object.hasOwn(exports, name))
          throw new TemplateError(
            `the template '${child.path}' does not export the requested name '${name}'`,
          );
        scope.set(alias, exports[name]);
      }
      return;
    }
    case 'importdata': {
      const child = (yield* loadChild(run, tpl, yield* evaluate(n.template, scope, run), n)) as Compiled;
      const { text } = yield* renderModule(run, child, globalScope(scope));
      scope.set(n.alias, parseData(n.fmt, text, child.path, [...child.chain]));
      return;
    }
    case 'loaddata': {
      const buf: string[] = [];
      yield* runNodes(run, tpl, n.body, new Scope(scope), buf);
      scope.set(
        n.name,
        parseData(n.fmt, buf.join(''), `${tpl.path} (load_${n.fmt} block, line ${n.line})`, tpl.chain),
      );
      return;
    }
    case 'filterblock': {
      const buf: string[] = [];
      yield* runNodes(run, tpl, n.body, new Scope(scope), buf);
      run.emit(out, str(yield* applyFilters(run, n.filters, buf.join(''), scope)));
      return;
    }
    case 'block': {
      const frame = frameOf<Compiled>(scope);
      if (!frame) throw new TemplateError(`block '${n.name}' outside a document`);
      if (frame.parent) return;
      run.emit(out, yield* renderBlock(run, frame, n.name, 0, n.scoped ? scope : frame.top));
      return;
    }
    case 'extends': {
      const frame = frameOf<Compiled>(scope);
      if (!frame) throw new TemplateError('extends outside a document');
      if (frame.parent) throw new TemplateError('extended multiple times');
      frame.parent = yield* loadChild(run, tpl, yield* evaluate(n.template, scope, run), n);
      frame.cut = out.length;
      return;
    }
    case 'with': {
      const s = new Scope(scope);
      for (const [name, e] of n.assigns) s.set(name, yield* evaluate(e, scope, run));
      yield* runNodes(run, tpl, n.body, s, out);
      return;
    }
  }
}

function* applyFilters(run: Run, filters: Expr[], value: unknown, scope: Scope): Gen<unknown> {
  let v = value;
  for (const f of filters) {
    const s = new Scope(scope);
    s.set('__value__', v);
    v = yield* evaluate(f, s, run);
  }
  return v;
}

/** The outermost scope (the template globals), for `without context` imports. */
function globalScope(scope: Scope): Scope {
  let s = scope;
  while (s.parent) s = s.parent;
  return s;
}

/** Parses `source` for `env` (syntax errors carry the path and line). */
export function compile(
  source: string,
  path: string,
  env: Pick<TemplateEnv, 'sandbox' | 'dropTrailingNewline'>,
  chain: readonly string[] = [],
): Compiled {
  const tpl: Compiled = { path, source, nodes: [], chain };
  try {
    const text = env.dropTrailingNewline ? source.replace(/\r?\n$/, '') : source;
    return { ...tpl, nodes: parseTemplate(text, env.sandbox) };
  } catch (err) {
    throw located(err, { line: 0, col: 0 }, tpl);
  }
}

function* renderGen(run: Run, tpl: Compiled, vars: Readonly<Record<string, unknown>>): Gen<string> {
  const globals = new Scope();
  for (const [k, v] of Object.entries(run.env.globals)) globals.set(k, v);
  const scope = new Scope(globals);
  for (const [k, v] of Object.entries(vars)) scope.set(k, v);
  const out: string[] = [];
  yield* runDocument(run, tpl, scope, out);
  return out.join('');
}

/** Renders a compiled template, awaiting async calls. */
export function renderAsync(
  tpl: Compiled,
  vars: Readonly<Record<string, unknown>>,
  env: TemplateEnv,
): Promise<string> {
  return runAsync(renderGen(new Run(env), tpl, vars));
}

const SANDBOX_ENV: TemplateEnv = {
  sandbox: true,
  filters: FILTERS,
  tests: TESTS,
  globals: {},
  maxDepth: 0,
  maxIterations: 10_000_000,
  maxOutput: 64 * 1024 * 1024,
  dropTrailingNewline: false,
  checkDeadline: () => {},
};

/** A parsed reactor template, renderable many times. */
export interface Template {
  render(vars: Readonly<Record<string, unknown>>): string;
}

/** The reactor's sandbox: parses `source`; anything outside the subset is a TemplateError with its line. */
export function compileTemplate(source: string): Template {
  const tpl = compile(source, '<reactor>', SANDBOX_ENV);
  return { render: (vars) => runSync(renderGen(new Run(SANDBOX_ENV), tpl, vars)) };
}

/** Parses and renders in one go (reactor sandbox). */
export function renderTemplate(source: string, vars: Readonly<Record<string, unknown>>): string {
  return compileTemplate(source).render(vars);
}
