/**
 * PyYAML's anchor and alias names are letters, digits, `-` and `_` only; YAML 1.2 (the `yaml`
 * package) lets a name run on to the next space. So `&name: value` is an anchored empty key in
 * Salt (`{None: value}`) and an anchor called `name:` here. This splits such a name where PyYAML
 * ends it (before `:`, `,`, `?`, `]`, `}`, `%`, `@`, a backtick), so both read the same, and
 * refuses the names PyYAML refuses.
 */
import { CST, Lexer } from 'yaml';

const NAME = /^[A-Za-z0-9_-]*/;
const ENDS_NAME = new Set([':', ',', '?', ']', '}', '%', '@', '`']);
/** The lexer's control tokens, which take no room in the source. */
const ZERO_WIDTH = new Set(['doc-mode', 'flow-error-end', 'scalar']);

/** The source with anchor/alias names cut where PyYAML cuts them; throws PyYAML's error text. */
export function splitAnchorNames(source: string, fail: (offset: number, message: string) => Error): string {
  if (!source.includes('&') && !source.includes('*')) return source;
  const cuts: number[] = [];
  let offset = 0;
  for (const token of new Lexer().lex(source)) {
    const type = CST.tokenType(token);
    if (type === 'anchor' || type === 'alias') {
      const name = token.slice(1);
      const good = (NAME.exec(name) as RegExpExecArray)[0].length;
      if (good < name.length) {
        const ch = name[good] as string;
        const what = type === 'anchor' ? 'an anchor' : 'an alias';
        if (good === 0 || !ENDS_NAME.has(ch))
          throw fail(
            offset + 1 + good,
            `while scanning ${what}: expected alphabetic or numeric character, but found '${ch}'`,
          );
        cuts.push(offset + 1 + good);
      }
    }
    if (!ZERO_WIDTH.has(type as string)) offset += token.length;
  }
  let out = source;
  for (const at of cuts.reverse()) out = `${out.slice(0, at)} ${out.slice(at)}`;
  return out;
}
