/**
 * Template inheritance's bookkeeping (Jinja2's `context.blocks`): each rendered document (the
 * top template, or one an `include`/`import` renders) has a frame holding, per block name, the
 * block definitions from the most derived template to the base; `self` renders the most derived
 * one and `super()` the next. `extends` records the parent the document continues with.
 */
import type { Scope } from './evaluate.js';
import type { Node } from './parse.js';
import type { Macro } from './values.js';

/** One `{% block %}` of one template. */
export interface BlockDef {
  readonly node: Extract<Node, { k: 'block' }>;
  /** The template it is written in (for error locations). */
  readonly tpl: { readonly path: string };
}

/** A document being rendered: its block stacks, `self`, its top scope, the parent it extends. */
export interface DocFrame<T> {
  readonly blocks: Map<string, BlockDef[]>;
  /** `self.name()` renders block `name` as the document defines it. */
  readonly self: Record<string, Macro>;
  readonly top: Scope;
  /** Set by `{% extends %}`; `cut` is the output length then (later top-level output is dropped). */
  parent?: T;
  cut: number;
}

const frames = new WeakMap<Scope, DocFrame<unknown>>();

export function newFrame<T>(top: Scope): DocFrame<T> {
  const frame: DocFrame<T> = { blocks: new Map(), self: {}, top, cut: 0 };
  frames.set(top, frame);
  return frame;
}

/** The frame a scope belongs to (its own, else its nearest ancestor's). */
export function frameOf<T>(scope: Scope): DocFrame<T> | undefined {
  for (let s: Scope | undefined = scope; s; s = s.parent) {
    const f = frames.get(s);
    if (f) return f as DocFrame<T>;
  }
  return undefined;
}

/** The frame whose top scope is exactly `scope` (the document's top level). */
export function topFrame<T>(scope: Scope): DocFrame<T> | undefined {
  return frames.get(scope) as DocFrame<T> | undefined;
}

/** Every `{% block %}` in `nodes`, nested ones included, in source order. */
export function collectBlocks(
  nodes: readonly Node[],
  out: Array<Extract<Node, { k: 'block' }>> = [],
): Array<Extract<Node, { k: 'block' }>> {
  for (const n of nodes) {
    if (n.k === 'block') out.push(n);
    if (n.k === 'if') {
      for (const b of n.branches) collectBlocks(b.body, out);
      if (n.else) collectBlocks(n.else, out);
    } else if (n.k === 'for') {
      collectBlocks(n.body, out);
      if (n.else) collectBlocks(n.else, out);
    } else if ('body' in n && Array.isArray(n.body)) collectBlocks(n.body, out);
  }
  return out;
}
