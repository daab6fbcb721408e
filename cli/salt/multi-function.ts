/**
 * `salt '*' test.ping,test.echo ,hello`: several functions in one job. The words after the
 * function list are split into one argument list per function at `--args-separator` (`,` by
 * default), as Salt's CLI does: a standalone separator word when there are exactly
 * (functions − 1) of them, else separators inside words.
 */
import { SALT_ERR_INVOCATION } from '../../kernel/errors.js';

export function splitMultiFunctionArgs(
  funs: readonly string[],
  words: readonly string[],
  sep = ',',
): string[][] {
  const out: string[][] = [[]];
  const standalone = words.filter((w) => w === sep).length === funs.length - 1;
  for (const word of words) {
    if (standalone) {
      if (word === sep) out.push([]);
      else out[out.length - 1]?.push(word);
      continue;
    }
    if (!word.includes(sep)) {
      out[out.length - 1]?.push(word);
      continue;
    }
    const parts = word.split(sep);
    parts.forEach((part, i) => {
      if (part) out[out.length - 1]?.push(part);
      if (i !== parts.length - 1) out.push([]);
    });
  }
  while (out.length < funs.length) out.push([]);
  if (out.length > funs.length) {
    throw new SALT_ERR_INVOCATION(
      `${out.length} argument lists for ${funs.length} functions: separate the arguments of each function with ${JSON.stringify(sep)}`,
    );
  }
  return out;
}
