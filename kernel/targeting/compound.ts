/**
 * Compound targets (`-C`): Salt's grammar, checked up front. Salt turns the words into a Python
 * expression of `True`/`False` (minion) or sets (master) joined by `and`/`or`/`not` and
 * parentheses, then `eval`s it; so the precedence is Python's (`not` over `and` over `or`), a
 * `not` right after an operand means `and not`, and anything Python would not parse is an
 * error. This module parses the same token stream into a tree, with the error said in words.
 */
import { SALT_ERR_TARGET_INVALID } from '../errors.js';
import { compoundWords, grouped, type Nodegroups, nodegroupComp } from './nodegroups.js';
import { ENGINES, type Engine, OPERATORS, parseTargetWord } from './target-word.js';

export interface CompoundLeaf {
  op: 'leaf';
  /** The word as written (`G@os:Debian`, `web*`). */
  word: string;
  /** `undefined` for a glob on the minion id. */
  engine: Exclude<Engine, 'N' | 'R'> | undefined;
  delimiter: string | undefined;
  pattern: string;
  /** Directly preceded by `not` (Salt then ignores missing ids of an `L@`). */
  negated: boolean;
}

export type CompoundNode =
  | { op: 'and' | 'or'; left: CompoundNode; right: CompoundNode }
  | { op: 'not'; operand: CompoundNode }
  | CompoundLeaf;

type Token = 'and' | 'or' | 'not' | '(' | ')' | CompoundLeaf;

export interface ParseCompoundOptions {
  /** Nodegroups for `N@` words (a minion normally has none: the master expands them). */
  nodegroups?: Nodegroups;
  /** The file the nodegroups come from, for the "unavailable" error. */
  nodegroupsFile?: string;
}

function leafFor(word: string, negated: boolean, fail: (why: string) => never): CompoundLeaf {
  const { engine, delimiter, pattern } = parseTargetWord(word);
  if (engine === undefined) {
    const prefix = /^([A-Z])@/.exec(word);
    if (prefix) {
      const letter = prefix[1] as string;
      if (letter in ENGINES) fail(`"${word}" has no pattern after ${letter}@`);
      fail(`unknown target type ${letter}@ in "${word}": expected one of G@ P@ I@ J@ L@ S@ E@ N@, or a glob`);
    }
    return { op: 'leaf', word, engine: undefined, delimiter: undefined, pattern: word, negated };
  }
  if (engine === 'R') fail(`range targets (R@) are not supported: "${word}"`);
  if (engine === 'N') fail(`nodegroup "${word}" was not expanded`);
  return { op: 'leaf', word, engine, delimiter, pattern, negated };
}

/** Salt's token pass: operator placement rules, nodegroups spliced in, `not` after an operand. */
function tokenize(words: string[], options: ParseCompoundOptions, fail: (why: string) => never): Token[] {
  const tokens: Token[] = [];
  const queue = [...words];
  while (queue.length) {
    const word = queue.shift() as string;
    const last = tokens[tokens.length - 1];
    if (OPERATORS.has(word)) {
      const op = word as 'and' | 'or' | 'not' | '(' | ')';
      if (last === undefined) {
        if (op !== '(' && op !== 'not') fail(`it cannot begin with "${op}"`);
      } else {
        if (last === '(' && (op === 'and' || op === 'or')) fail(`"${op}" cannot follow "("`);
        if (op === 'not' && last !== 'and' && last !== 'or' && last !== '(') tokens.push('and');
      }
      tokens.push(op);
      continue;
    }
    if (word.length > 2 && word.startsWith('N@')) {
      const inner = nodegroupComp(word.slice(2), options.nodegroups, options.nodegroupsFile);
      queue.unshift(...grouped(inner));
      continue;
    }
    tokens.push(leafFor(word, last === 'not', fail));
  }
  return tokens;
}

function describe(token: Token | undefined): string {
  if (token === undefined) return 'the end';
  return typeof token === 'string' ? `"${token}"` : `"${token.word}"`;
}

/** Recursive descent over Python's `or_test` / `and_test` / `not_test` grammar. */
function parseTokens(tokens: Token[], fail: (why: string) => never): CompoundNode {
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  function atom(): CompoundNode {
    const t = tokens[pos++];
    if (t === '(') {
      if (peek() === ')') fail('"( )" is empty');
      const inner = orTest();
      if (peek() !== ')') fail(`unbalanced parentheses: a "(" is not closed (found ${describe(peek())})`);
      pos++;
      return inner;
    }
    if (t === undefined) fail('it ends where a target was expected');
    if (typeof t === 'object') return t;
    fail(`a target was expected before ${describe(t)}`);
  }
  function notTest(): CompoundNode {
    if (peek() === 'not') {
      pos++;
      return { op: 'not', operand: notTest() };
    }
    return atom();
  }
  function andTest(): CompoundNode {
    let left = notTest();
    while (peek() === 'and') {
      pos++;
      left = { op: 'and', left, right: notTest() };
    }
    return left;
  }
  function orTest(): CompoundNode {
    let left = andTest();
    while (peek() === 'or') {
      pos++;
      left = { op: 'or', left, right: andTest() };
    }
    return left;
  }
  const tree = orTest();
  if (pos < tokens.length) {
    const t = tokens[pos];
    if (t === ')') fail('unbalanced parentheses: a ")" has no matching "("');
    fail(`an operator (and, or) was expected before ${describe(t)}`);
  }
  return tree;
}

/** Parses a compound target; a bad one throws SALT_ERR_TARGET_INVALID saying what is wrong. */
export function parseCompound(tgt: unknown, options: ParseCompoundOptions = {}): CompoundNode {
  const shown = Array.isArray(tgt) ? tgt.join(' ') : String(tgt);
  const fail = (why: string): never => {
    throw new SALT_ERR_TARGET_INVALID(`Invalid compound target "${shown}": ${why}`);
  };
  const words = compoundWords(tgt);
  if (words.length === 0) fail('it is empty');
  return parseTokens(tokenize(words, options, fail), fail);
}

export interface CompoundAlgebra<T> {
  leaf(leaf: CompoundLeaf): T;
  and(a: T, b: T): T;
  or(a: T, b: T): T;
  not(a: T): T;
}

/** Evaluates a parsed compound target; every leaf is evaluated, as Salt does before its `eval`. */
export function evaluateCompound<T>(node: CompoundNode, algebra: CompoundAlgebra<T>): T {
  switch (node.op) {
    case 'leaf':
      return algebra.leaf(node);
    case 'not':
      return algebra.not(evaluateCompound(node.operand, algebra));
    default: {
      const a = evaluateCompound(node.left, algebra);
      const b = evaluateCompound(node.right, algebra);
      return node.op === 'and' ? algebra.and(a, b) : algebra.or(a, b);
    }
  }
}
