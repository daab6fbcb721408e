/**
 * Realistic minion returns shared by the outputter tests, each shaped as the `salt` CLI
 * hands one minion's return to an outputter: `{minion_id: ret}`.
 */
import { SaltFloat } from '../kernel/python/index.js';

export const RETURNS = {
  bool: { m1: true },
  multiline: { m1: 'hi\nthere' },
  nested: {
    m1: { foo: { bar: 'baz', dictionary: { abc: 123, def: 456 }, list: ['Hello', 'World'] } },
  },
  /** cmd.run_all */
  runAll: { m1: { pid: 4242, retcode: 0, stderr: '', stdout: 'total 0\n-rw-r--r-- 1 root root 0 a.txt' } },
  /** `whole` and `big` are Python floats with integral values, which JS numbers cannot tell from ints. */
  numbers: {
    m1: { int: 42, float: 1.5, whole: new SaltFloat(1), big: new SaltFloat(1e16), small: 1e-5, neg: -7 },
  },
  none: { m1: null },
  empty: { m1: {}, m2: [], m3: '' },
  unicode: { m1: { name: 'Zoë', city: '東京', emoji: '😀' } },
  listNested: { m1: [1, [2, 3], { a: 'b' }, 'multi\nline'] },
  tricky: { m1: ['yes', '1.0', '', 'a: b', "it's", '- x', '~', 'trail ', '2024-01-01', 'tab\there'] },
  long: { m1: Array(20).fill('word').join(' ') },
} as const;
