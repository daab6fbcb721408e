/**
 * ElementTree's XPath subset (`ElementPath.find`), which Salt's `xml` module hands its
 * `element` argument to: tags, `*`, `.`, `..`, `//`, `{uri}tag` and `{*}` wildcards, and the
 * predicates `[@a]`, `[@a='v']`, `[@a!='v']`, `[tag]`, `[tag='text']`, `[.='text']`, `[n]`,
 * `[last()]`, `[last()-n]`. Without a prefix map, as Salt calls it: `p:tag` is an error.
 */
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyRepr } from '../kernel/util.js';
import type { XmlElement } from './_xml-tree.js';

type Token = [op: string, tag: string];
type Select = (ctx: Context, result: XmlElement[]) => XmlElement[];

interface Context {
  root: XmlElement;
  parents?: Map<XmlElement, XmlElement>;
}

const TOKEN = /('[^']*'|"[^"]*"|::|\/\/?|\.\.|\(\)|!=|[/.*:[\]()@=])|((?:\{[^}]+\})?[^/[\]()@!=\s]+)|\s+/g;

const syntax = (msg: string): never => {
  throw new SALT_ERR_EXEC_COMMAND(msg);
};

function tokens(path: string): Token[] {
  const out: Token[] = [];
  for (const m of path.matchAll(TOKEN)) {
    const tag = m[2] ?? '';
    if (tag && tag[0] !== '{' && tag.includes(':'))
      syntax(`prefix ${pyRepr(tag.slice(0, tag.indexOf(':')))} not found in prefix map`);
    out.push([m[1] ?? '', tag]);
  }
  return out;
}

/** Pre-order walk, the element itself first (Python's `Element.iter()`). */
function* iter(el: XmlElement): Generator<XmlElement> {
  yield el;
  for (const c of el.children) yield* iter(c);
}

function itertext(el: XmlElement): string {
  let s = el.text ?? '';
  for (const c of el.children) s += itertext(c) + (c.tail ?? '');
  return s;
}

function parentsOf(ctx: Context): Map<XmlElement, XmlElement> {
  if (!ctx.parents) {
    ctx.parents = new Map();
    for (const p of iter(ctx.root)) for (const c of p.children) ctx.parents.set(c, p);
  }
  return ctx.parents;
}

/** A test for one tag: a wildcard form, `*`, `{}tag` (no namespace) or an exact tag. */
function tagTest(tag: string): (el: XmlElement) => boolean {
  if (tag === '{*}*' || tag === '*') return () => true;
  if (tag === '{}*') return (el) => !el.tag.startsWith('{');
  if (tag.startsWith('{*}')) {
    const suffix = tag.slice(2);
    const local = tag.slice(3);
    return (el) => el.tag === local || el.tag.endsWith(suffix);
  }
  if (tag.endsWith('}*')) {
    const ns = tag.slice(0, -1);
    return (el) => el.tag.startsWith(ns);
  }
  const exact = tag.startsWith('{}') ? tag.slice(2) : tag;
  return (el) => el.tag === exact;
}

function child(tag: string): Select {
  const test = tagTest(tag);
  return (_c, result) => result.flatMap((el) => el.children.filter(test));
}

function descendant(next: () => Token): Select {
  const [op, name] = next();
  const tag = op === '*' ? '*' : op === '' ? name : syntax('invalid descendant');
  const test = tagTest(tag);
  return (_c, result) => result.flatMap((el) => [...iter(el)].filter((e) => e !== el && test(e)));
}

const parent: Select = (ctx, result) => {
  const map = parentsOf(ctx);
  const seen = new Set<XmlElement>();
  for (const el of result) {
    const p = map.get(el);
    if (p) seen.add(p);
  }
  return [...seen];
};

const INDEX = /^-?\d+$/;

function predicate(next: () => Token): Select {
  const sig: string[] = [];
  const pred: string[] = [];
  for (;;) {
    let t = next();
    if (t[0] === ']') break;
    if (t[0] === '' && t[1] === '') continue;
    if (t[0] && (t[0][0] === "'" || t[0][0] === '"')) t = ["'", t[0].slice(1, -1)];
    sig.push(t[0] || '-');
    pred.push(t[1]);
  }
  const s = sig.join('');
  const [first = '', second = '', third = ''] = pred;
  const last = pred[pred.length - 1] ?? '';
  const keep =
    (f: (el: XmlElement) => boolean): Select =>
    (_c, result) =>
      result.filter(f);
  if (s === '@-') return keep((el) => el.attrib.has(second));
  if (s === "@-='") return keep((el) => el.attrib.get(second) === last);
  if (s === "@-!='") return keep((el) => el.attrib.has(second) && el.attrib.get(second) !== last);
  if (s === '-' && !INDEX.test(first)) return keep((el) => el.children.some(tagTest(first)));
  const negated = s.includes('!=');
  if (s === ".='" || s === ".!='") return keep((el) => (itertext(el) === last) !== negated);
  if ((s === "-='" || s === "-!='") && !INDEX.test(first)) {
    const test = tagTest(first);
    return keep((el) => el.children.some((c) => test(c) && (itertext(c) === last) !== negated));
  }
  if (s === '-' || s === '-()' || s === '-()-') {
    let index = -1;
    if (s === '-') {
      index = Number.parseInt(first, 10) - 1;
      if (index < 0) syntax('XPath position >= 1 expected');
    } else {
      if (first !== 'last') syntax('unsupported function');
      if (s === '-()-') {
        if (!INDEX.test(third)) syntax('unsupported expression');
        index = Number.parseInt(third, 10) - 1;
        if (index > -2) syntax('XPath offset from last() must be negative');
      }
    }
    return (ctx, result) => {
      const map = parentsOf(ctx);
      return result.filter((el) => {
        const p = map.get(el);
        if (!p) return false;
        const same = p.children.filter((c) => c.tag === el.tag);
        return same.at(index) === el;
      });
    };
  }
  return syntax('invalid predicate');
}

/** `ElementTree.find(path)` on a parsed document: the first match, or null. */
export function findElement(root: XmlElement, path: string): XmlElement | null {
  let p = path.startsWith('/') ? `.${path}` : path;
  if (p.endsWith('/')) p += '*';
  const list = tokens(p);
  if (list.length === 0) return syntax("'NoneType' object is not an iterator");
  let i = 0;
  const next = (): Token => {
    const t = list[i++];
    if (!t) return syntax('invalid path');
    return t;
  };
  const selectors: Select[] = [];
  let token = next();
  for (;;) {
    const [op, tag] = token;
    if (op === '') selectors.push(child(tag));
    else if (op === '*') selectors.push(child('*'));
    else if (op === '.') selectors.push((_c, r) => r);
    else if (op === '..') selectors.push(parent);
    else if (op === '//') {
      if (i >= list.length) break;
      selectors.push(descendant(next));
    } else if (op === '[') selectors.push(predicate(next));
    else return syntax(pyRepr(op));
    if (i >= list.length) break;
    token = next();
    if (token[0] === '/') {
      if (i >= list.length) break;
      token = next();
    }
  }
  const ctx: Context = { root };
  let result = [root];
  for (const s of selectors) result = s(ctx, result);
  return result[0] ?? null;
}
