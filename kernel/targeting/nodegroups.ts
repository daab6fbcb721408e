/**
 * Nodegroups (`nodegroups` in the master config): named compound targets. Expansion follows
 * Salt's `nodegroup_comp`: a group is a compound string or a list of words; `N@other` inside
 * a group is expanded in place (in parentheses); a group of plain ids becomes `L@a,b`, one with
 * regex characters `E@...`. Unlike Salt, which logs and drops the offending word, an unknown
 * group or a group that includes itself is an error.
 */
import { SALT_ERR_TARGET_INVALID } from '../errors.js';
import { OPERATORS } from './target-word.js';

export type NodegroupTarget = string | readonly unknown[];
export type Nodegroups = Readonly<Record<string, NodegroupTarget>>;

const GROUP_TYPE = /^[A-Z]@/;
const REGEX_CHARS = ['(', '[', '{', '\\', '?', '}', ']', ')'];

/** Salt's `_nodegroup_regex`: a group with no operators, globs or prefixes as one `L@`/`E@` word. */
function asSingleWord(words: readonly string[]): string[] | undefined {
  if (words.some((w) => OPERATORS.has(w))) return undefined;
  if (words.some((w) => w.includes('*') || GROUP_TYPE.test(w))) return undefined;
  const isRegex = words.some((w) => REGEX_CHARS.some((c) => w.includes(c)));
  return [`${isRegex ? 'E' : 'L'}@${words.join(',')}`];
}

function groupWords(name: string, nodegroups: Nodegroups | undefined, where: string): string[] {
  const def = nodegroups && Object.hasOwn(nodegroups, name) ? nodegroups[name] : undefined;
  if (def === undefined) throw new SALT_ERR_TARGET_INVALID(`Node group ${name} unavailable in ${where}`);
  if (typeof def === 'string') return def.split(/\s+/).filter(Boolean);
  if (Array.isArray(def)) return def.map((w) => String(w));
  throw new SALT_ERR_TARGET_INVALID(`Node group ${name} is neither a compound string nor a list`);
}

function expand(
  name: string,
  nodegroups: Nodegroups | undefined,
  where: string,
  stack: string[],
  firstCall: boolean,
): string[] {
  if (stack.includes(name)) {
    throw new SALT_ERR_TARGET_INVALID(
      `Node group ${name} includes itself: ${[...stack, name].map((n) => `N@${n}`).join(' → ')}`,
    );
  }
  const words = groupWords(name, nodegroups, where);
  stack.push(name);
  let nested = false;
  const out: string[] = [];
  for (const word of words) {
    if (!OPERATORS.has(word) && word.length >= 3 && word.startsWith('N@')) {
      nested = true;
      out.push(...expand(word.slice(2), nodegroups, where, stack, false));
    } else out.push(word);
  }
  stack.pop();
  if (nested || !firstCall) {
    if (!firstCall) {
      const single = asSingleWord(words);
      if (single) return single;
    }
    return out.length ? ['(', ...out, ')'] : out;
  }
  return asSingleWord(words) ?? words;
}

/**
 * The compound words a nodegroup stands for (Salt's `nodegroup_comp`). `where` names the
 * config file in the "unavailable" error.
 */
export function nodegroupComp(
  name: string,
  nodegroups: Nodegroups | undefined,
  where = 'the master config file',
): string[] {
  return expand(name, nodegroups, where, [], true);
}

/** True when the words are one parenthesised group: `( ... )` with the first `(` closed last. */
export function isWrapped(words: readonly string[]): boolean {
  if (words[0] !== '(' || words[words.length - 1] !== ')') return false;
  let depth = 0;
  for (let i = 0; i < words.length; i++) {
    if (words[i] === '(') depth++;
    else if (words[i] === ')') depth--;
    if (depth === 0) return i === words.length - 1;
  }
  return false;
}

/** Parentheses around a multi-word group, so that it keeps its precedence where it is spliced. */
export function grouped(words: string[]): string[] {
  return words.length > 1 && !isWrapped(words) ? ['(', ...words, ')'] : words;
}

/** The words of a compound target (a string is split on whitespace, as Python's `split()`). */
export function compoundWords(tgt: unknown): string[] {
  if (typeof tgt === 'string') return tgt.split(/\s+/).filter(Boolean);
  if (Array.isArray(tgt)) return tgt.map((w) => String(w));
  throw new SALT_ERR_TARGET_INVALID('a compound target must be a string or a list of words');
}

/**
 * What the master publishes for a nodegroup or compound target (Salt's `LocalClient._prep_pub`):
 * nodegroups resolved so that minions need not know them, the target type `compound`, the
 * words joined by spaces. Other target types are returned unchanged.
 */
export function resolveNodegroups(
  tgt: unknown,
  tgtType: string,
  nodegroups: Nodegroups | undefined,
  where?: string,
): { tgt: unknown; tgtType: string } {
  let words: string[];
  if (tgtType === 'nodegroup') {
    if (typeof tgt !== 'string') throw new SALT_ERR_TARGET_INVALID('a nodegroup target must be a group name');
    words = nodegroupComp(tgt, nodegroups, where);
  } else if (tgtType === 'compound') words = compoundWords(tgt);
  else return { tgt, tgtType };
  const out: string[] = [];
  for (const word of words) {
    if (word.length > 2 && word.startsWith('N@')) {
      const inner = nodegroupComp(word.slice(2), nodegroups, where);
      // Salt splices a group without parentheses; tsalt keeps the group's own precedence
      out.push(...grouped(inner));
    } else out.push(word);
  }
  return { tgt: out.join(' '), tgtType: 'compound' };
}
