/**
 * Salt's `get_printout` for an outputter it cannot find: it logs an error and prints with
 * nested. The error is Salt's console log line, written with each output as Salt's is.
 */
import type { Outputter } from './types.js';

export function nestedFallback(name: string, nested: Outputter): Outputter {
  return {
    name: 'nested',
    render(data, opts) {
      // Salt stays quiet about `grains`, an outputter it removed that old minions still ask for
      if (name !== 'grains')
        process.stderr.write(`[ERROR   ] Invalid outputter ${name} specified, fall back to nested\n`);
      return nested.render(data, opts);
    },
  };
}
