import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SALT_ERR_INVOCATION, type SaltError } from '../errors.js';
import { defineFunction } from '../loader/define.js';
import { pyRepr } from '../python/repr.js';
import { float64, SaltFloat } from '../serial/index.js';
import {
  bindArgs,
  conditionInput,
  formatInvocationError,
  isJidLike,
  parseCliArgs,
  parseKwarg,
  pubKwargs,
  splitArgs,
  yamlifyArg,
} from './args.js';

// Expected values are Python's repr() of Salt 3006.18's own yamlify_arg / parse_input output,
// produced by running salt/utils/args.py + salt/utils/yamlloader.py (PyYAML 6, libyaml).
const YAMLIFY: [string, string][] = [
  ['1', '1'],
  ['-1', '-1'],
  ['+1', '1'],
  ['0', '0'],
  ['00', '0'],
  ['007', '7'],
  ['0755', '755'],
  ['-0755', '-493'],
  ['+0755', '493'],
  ['08', "'08'"],
  ['0o17', "'0o17'"],
  ['0x1F', '31'],
  ['-0x1F', '-31'],
  ['0X1F', "'0X1F'"],
  ['0b101', '5'],
  ['0b', "'0b'"],
  ['1_000', "'1_000'"],
  ['1_0.5', '10.5'],
  ['[0_7]', '[7]'],
  ['1:30', '90'],
  ['-1:30', '-90'],
  ['1:30:00', '5400'],
  ['01:30', "'01:30'"],
  ['1:30.5', '90.5'],
  ['1.5', '1.5'],
  ['1.', '1.0'],
  ['.5', '0.5'],
  ['-.5', "'-.5'"],
  ['+1.5', '1.5'],
  ['1e3', "'1e3'"],
  ['1.5e3', "'1.5e3'"],
  ['1.5e+3', '1500.0'],
  ['1.0e-3', '0.001'],
  ['1.0', '1.0'],
  ['-0.0', '-0.0'],
  ['.inf', 'inf'],
  ['-.inf', '-inf'],
  ['+.inf', 'inf'],
  ['.nan', 'nan'],
  ['.NaN', 'nan'],
  ['.Inf', 'inf'],
  ['nan', "'nan'"],
  ['inf', "'inf'"],
  ['true', 'True'],
  ['True', 'True'],
  ['TRUE', 'True'],
  ['tRue', "'tRue'"],
  ['false', 'False'],
  ['yes', 'True'],
  ['Yes', 'True'],
  ['no', 'False'],
  ['on', 'True'],
  ['off', 'False'],
  ['OFF', 'False'],
  ['y', "'y'"],
  ['n', "'n'"],
  ['Y', "'Y'"],
  ['None', 'None'],
  ['none', "'none'"],
  ['null', 'None'],
  ['Null', 'None'],
  ['NULL', 'None'],
  ['~', 'None'],
  ["'quoted'", "'quoted'"],
  ['"double"', "'double'"],
  ['"a\\tb"', "'a\\tb'"],
  ["'it''s'", '"it\'s"'],
  ['foo', "'foo'"],
  ['foo bar', "'foo bar'"],
  ['foo #bar', "'foo #bar'"],
  ['foo#bar', "'foo#bar'"],
  ['#foo', "'#foo'"],
  [' #foo', "' #foo'"],
  ['[1,2] # list', '[1, 2]'],
  ['a: 1 # c', "{'a': 1}"],
  ['{a: 1} #c', "{'a': 1}"],
  ['#', "'#'"],
  ['2020-01-01', "'2020-01-01'"],
  ['2001-12-14t21:59:43.10-05:00', "'2001-12-14t21:59:43.10-05:00'"],
  ['2001-12-14 21:59:43.10 -5', "'2001-12-14 21:59:43.10 -5'"],
  ['{a: 2020-01-01}', "{'a': '2020-01-01'}"],
  ['[2020-01-01]', "['2020-01-01']"],
  ['[1,2]', '[1, 2]'],
  ['[1, 2, [3, 4]]', '[1, 2, [3, 4]]'],
  [' [1,2]', "' [1,2]'"],
  ['{a: 1}', "{'a': 1}"],
  ['{a: 1, b: [x, y], c: {d: null}}', "{'a': 1, 'b': ['x', 'y'], 'c': {'d': None}}"],
  [' {a: 1}', "' {a: 1}'"],
  ['{a: 1, a: 2}', "'{a: 1, a: 2}'"],
  ['{[1]: 2}', "'{[1]: 2}'"],
  ['{1: a}', "{'1': 'a'}"], // Salt keeps the non-string key; object keys are strings here
  ['{a}', "{'a': None}"],
  ['{a: }', "{'a': None}"],
  ['{<<: {a: 1}, b: 2}', "{'a': 1, 'b': 2}"],
  ['[&x 1, *x]', '[1, 1]'],
  ['*x', "'*x'"],
  ['&x', 'None'],
  ['&x 1', '1'],
  ['!!str 1', "'1'"],
  ['!!int "12"', '12'],
  ['!!int abc', "'!!int abc'"],
  ['!!float 1', '1.0'],
  ['!!float "1.5"', '1.5'],
  ['!!bool yes', 'True'],
  ['!!null x', 'None'],
  ['!!timestamp 2001-01-01', "'2001-01-01'"],
  ['!!binary aGVsbG8=', "'!!binary aGVsbG8='"],
  ['!!set {a, b}', "'!!set {a, b}'"],
  ['!!python/tuple [1, 2]', "'!!python/tuple [1, 2]'"],
  ['!foo bar', "'!foo bar'"],
  ['!', "'!'"],
  ['|', "'|'"],
  ['>', "''"],
  ['-', "'-'"],
  ['- a', "'- a'"],
  ['a: b', "'a: b'"],
  ['a: b: c', "'a: b: c'"],
  ['[1, 2', "'[1, 2'"],
  ['{a: 1', "'{a: 1'"],
  ["'unterminated", '"\'unterminated"'],
  ['@foo', "'@foo'"],
  ['`foo', "'`foo'"],
  ['%foo', "'%foo'"],
  ['---', "'---'"],
  ['--- 1', '1'],
  ['...', "'...'"],
  [' ', "' '"],
  ['a=b', "'a=b'"],
  ['a==b', "'a==b'"],
  ['=', "'='"],
  ['<<', "'<<'"],
  ['12345678901234567890', '12345678901234567890'],
  ['-1234567890123456789', '-1234567890123456789'],
  ['123456789012345678901', '123456789012345678901'],
  ['9007199254740993', '9007199254740993'],
  ['[12345678901234567890]', '[12345678901234567890]'],
  ['http://example.com/a?b=c', "'http://example.com/a?b=c'"],
  ['C:\\path', "'C:\\\\path'"],
  ['a, b', "'a, b'"],
  ['"1"', "'1'"],
  ["'1'", "'1'"],
  ['1 2', "'1 2'"],
  ['-1.5e-10', '-1.5e-10'],
  ['100000000000000000000.0', '1e+20'],
  ['1.5e16', "'1.5e16'"],
  ['0.0001', '0.0001'],
  ['0.00001', '1e-05'],
  ['[.5, 1.0, 2e3]', "[0.5, 1.0, '2e3']"],
  ['{1.5: a}', "{'1.5': 'a'}"], // Salt keeps the non-string key; object keys are strings here
  ['{null: a}', "{'None': 'a'}"], // Salt keeps the non-string key; object keys are strings here
  ['{true: a}', "{'True': 'a'}"], // Salt keeps the non-string key; object keys are strings here
  ['[yes, no, on, off]', '[True, False, True, False]'],
  ['[0755, -0755]', '[755, -493]'],
  ['[1_000]', '[1000]'],
  ['"\\x41"', "'A'"],
  ['"\\u263a"', "'☺'"],
  ['héllo', "'héllo'"],
  ['{é: 1}', "{'é': 1}"],
  ['[a,,b]', "'[a,,b]'"],
  ['{a: [1, {b: 2}]}', "{'a': [1, {'b': 2}]}"],
];

// [argv, parse_input(argv), parse_input(argv, no_parse=['k'])]
const PARSE_INPUT: [string[], string, string][] = [
  [['a', '1', 'k=v'], "['a', 1, {'__kwarg__': True, 'k': 'v'}]", "['a', 1, {'__kwarg__': True, 'k': 'v'}]"],
  [['k=v'], "[{'__kwarg__': True, 'k': 'v'}]", "[{'__kwarg__': True, 'k': 'v'}]"],
  [[], '[]', '[]'],
  [['a'], "['a']", "['a']"],
  [
    ['k=1', 'j=[1,2]', 'l={a: 1}'],
    "[{'__kwarg__': True, 'k': 1, 'j': [1, 2], 'l': {'a': 1}}]",
    "[{'__kwarg__': True, 'k': '1', 'j': [1, 2], 'l': {'a': 1}}]",
  ],
  [['1k=v'], "['1k=v']", "['1k=v']"],
  [['_k=v'], "[{'__kwarg__': True, '_k': 'v'}]", "[{'__kwarg__': True, '_k': 'v'}]"],
  [['k.x-y=v'], "[{'__kwarg__': True, 'k.x-y': 'v'}]", "[{'__kwarg__': True, 'k.x-y': 'v'}]"],
  [['k==v'], "['k==v']", "['k==v']"],
  [['k= v'], "[{'__kwarg__': True, 'k': 'v'}]", "[{'__kwarg__': True, 'k': ' v'}]"],
  [['k =v'], "['k =v']", "['k =v']"],
  [['k=v=w'], "[{'__kwarg__': True, 'k': 'v=w'}]", "[{'__kwarg__': True, 'k': 'v=w'}]"],
  [['k='], "[{'__kwarg__': True, 'k': ''}]", "[{'__kwarg__': True, 'k': ''}]"],
  [['=v'], "['=v']", "['=v']"],
  [['é=1'], "[{'__kwarg__': True, 'é': 1}]", "[{'__kwarg__': True, 'é': 1}]"],
  [['k=a\nb'], "['k=a\\nb']", "['k=a\\nb']"],
  [['k=a\n'], "[{'__kwarg__': True, 'k': 'a'}]", "[{'__kwarg__': True, 'k': 'a'}]"],
  [['FOO=bar env'], "[{'__kwarg__': True, 'FOO': 'bar env'}]", "[{'__kwarg__': True, 'FOO': 'bar env'}]"],
  [['echo a=b'], "['echo a=b']", "['echo a=b']"],
  [['20240101123456789012'], "['20240101123456789012']", "['20240101123456789012']"],
  [
    ['k=20240101123456789012'],
    "[{'__kwarg__': True, 'k': 20240101123456789012}]",
    "[{'__kwarg__': True, 'k': '20240101123456789012'}]",
  ],
  [['-1234567890123456789'], "['-1234567890123456789']", "['-1234567890123456789']"],
  [['k=v', 'k=w'], "[{'__kwarg__': True, 'k': 'w'}]", "[{'__kwarg__': True, 'k': 'w'}]"],
  [
    ['a', 'k=v', 'b'],
    "['a', 'b', {'__kwarg__': True, 'k': 'v'}]",
    "['a', 'b', {'__kwarg__': True, 'k': 'v'}]",
  ],
  [
    ['text=hello world'],
    "[{'__kwarg__': True, 'text': 'hello world'}]",
    "[{'__kwarg__': True, 'text': 'hello world'}]",
  ],
  [
    ['cmd=sed -e s/=/:/g'],
    "[{'__kwarg__': True, 'cmd': 'sed -e s/=/:/g'}]",
    "[{'__kwarg__': True, 'cmd': 'sed -e s/=/:/g'}]",
  ],
  [
    ['k=None', 'k2=null', 'k3=#x'],
    "[{'__kwarg__': True, 'k': None, 'k2': None, 'k3': '#x'}]",
    "[{'__kwarg__': True, 'k': 'None', 'k2': None, 'k3': '#x'}]",
  ],
  [['k=0755'], "[{'__kwarg__': True, 'k': 755}]", "[{'__kwarg__': True, 'k': '0755'}]"],
  [['1.0'], '[1.0]', '[1.0]'],
];

describe('yamlifyArg', () => {
  it.each(YAMLIFY)('%j → %s', (word, expected) => {
    expect(pyRepr(yamlifyArg(word))).toBe(expected);
  });

  it('passes non-strings through', () => {
    const obj = { a: 1 };
    expect(yamlifyArg(obj)).toBe(obj);
    expect(yamlifyArg(5)).toBe(5);
  });

  it('keeps words with tabs, CRs or newlines as they are', () => {
    expect(yamlifyArg('1\n')).toBe('1\n');
    expect(yamlifyArg('a\tb')).toBe('a\tb');
  });

  it('marks integral floats so they travel as float 64', () => {
    expect(yamlifyArg('1.0')).toEqual(float64(1));
    expect(yamlifyArg('1.5')).toBe(1.5);
  });

  it('returns big ints as bigint', () => {
    expect(yamlifyArg('12345678901234567890')).toBe(12345678901234567890n);
    expect(yamlifyArg('9007199254740991')).toBe(9007199254740991);
  });

  it('gives plain JS values for collections', () => {
    expect(yamlifyArg('{a: 1, b: [x, null]}')).toEqual({ a: 1, b: ['x', null] });
  });
});

describe('parseCliArgs', () => {
  it.each(PARSE_INPUT)('%j', (argv, expected, expectedNoParse) => {
    expect(pyRepr(parseCliArgs(argv))).toBe(expected);
    expect(pyRepr(parseCliArgs(argv, { noParse: ['k'] }))).toBe(expectedNoParse);
  });

  it('produces the observed wire form of `salt * test.arg a 1 k=v`', () => {
    expect(parseCliArgs(['a', '1', 'k=v'])).toEqual(['a', 1, { __kwarg__: true, k: 'v' }]);
  });

  it('appends no map without keywords', () => {
    expect(parseCliArgs(['a', 'b'])).toEqual(['a', 'b']);
    expect(parseCliArgs([])).toEqual([]);
  });

  it('sends jid-like integers as strings, but only positionals', () => {
    expect(parseCliArgs(['20240101123456789012', 'jid=20240101123456789012'])).toEqual([
      '20240101123456789012',
      { __kwarg__: true, jid: 20240101123456789012n },
    ]);
  });
});

describe('parseKwarg / isJidLike / conditionInput', () => {
  it.each([
    ['k=v', ['k', 'v']],
    ['k==v', null],
    ['1k=v', null],
    ['k =v', null],
    ['k.a-b=1', ['k.a-b', '1']],
    ['_=1', ['_', '1']],
    ['k=a\nb', null],
    ['k=a\n', ['k', 'a']],
    ['k=a\rb', ['k', 'a\rb']],
    ['ключ=1', ['ключ', '1']],
  ] as const)('parseKwarg(%j)', (word, expected) => {
    expect(parseKwarg(word)).toEqual(expected);
  });

  it.each([
    ['20240101123456789012', true],
    ['20240101123456789012_123', true],
    ['2024010112345678901', false],
    ['202401011234567890123', false],
    ['2024010112345678901a', false],
    ['-2024010112345678901', true],
  ] as const)('isJidLike(%j) is %s', (jid, expected) => {
    expect(isJidLike(jid)).toBe(expected);
  });

  it('conditionInput keeps strings and non-jid numbers', () => {
    expect(conditionInput(['x', 1, 20240101123456789012n], { a: 1 })).toEqual([
      'x',
      1,
      '20240101123456789012',
      { __kwarg__: true, a: 1 },
    ]);
    expect(conditionInput(['x'], {})).toEqual(['x']);
  });
});

describe('splitArgs', () => {
  it('takes the observed wire form apart', () => {
    expect(splitArgs(['a', 1, { __kwarg__: true, k: 'v' }])).toEqual({ args: ['a', 1], kwargs: { k: 'v' } });
  });

  it('reads string k=v positionals as keywords with YAML-typed values', () => {
    expect(splitArgs(['k=1', 'x', 'l=[1, 2]'])).toEqual({ args: ['x'], kwargs: { k: 1, l: [1, 2] } });
  });

  it('does not YAML-type plain positionals', () => {
    expect(splitArgs(['1', 'true'])).toEqual({ args: ['1', 'true'], kwargs: {} });
  });

  it('keeps maps without __kwarg__ true as positionals', () => {
    const m = { a: 1 };
    const n = { __kwarg__: false, b: 2 };
    const o = { __kwarg__: 1, c: 3 };
    expect(splitArgs([m, n, o])).toEqual({ args: [m, n, o], kwargs: {} });
  });

  it('lets later keywords win', () => {
    expect(splitArgs([{ __kwarg__: true, k: 1 }, 'k=2', { __kwarg__: true, k: 3, j: 4 }]).kwargs).toEqual({
      k: 3,
      j: 4,
    });
  });

  it('pubKwargs prefixes the publish data', () => {
    expect(pubKwargs({ jid: '1', fun: 'test.arg' })).toEqual({ __pub_jid: '1', __pub_fun: 'test.arg' });
  });
});

const echo = defineFunction({ args: z.object({ text: z.string() }), run: (_c, a) => a.text });
const f2 = defineFunction({
  args: z.object({ a: z.number(), b: z.number().default(1) }),
  run: (_c, a) => a.a + a.b,
});
const g3 = defineFunction({
  args: z.object({ a: z.unknown(), b: z.unknown(), c: z.unknown() }),
  run: () => null,
});
const ping = defineFunction({ run: () => true });
// Salt's `time_`, aliased `time` by __func_alias__, with one defaulted argument
const time = defineFunction({
  pyName: 'time_',
  args: z.object({ format: z.string().default('%A') }),
  run: () => 0,
});
const starry = defineFunction({
  args: z.object({ a: z.number().optional() }),
  varargs: true,
  varkw: true,
  run: () => null,
});

function invocationError(fn: () => unknown): SaltError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SALT_ERR_INVOCATION);
    expect((err as SaltError).code).toBe('SALT_ERR_INVOCATION');
    return err as SaltError;
  }
  throw new Error('expected SALT_ERR_INVOCATION');
}

describe('bindArgs', () => {
  it('binds positionals in order and keywords by name', () => {
    expect(bindArgs(f2, 'm.f', [2], {})).toEqual({ bound: { a: 2, b: 1 }, extra: { args: [], kwargs: {} } });
    expect(bindArgs(f2, 'm.f', [], { b: 5, a: 1 }).bound).toEqual({ a: 1, b: 5 });
    expect(bindArgs(f2, 'm.f', [1, 2], {}).bound).toEqual({ a: 1, b: 2 });
  });

  it('collects extras with varargs and varkw, including __pub_ keys', () => {
    expect(bindArgs(starry, 'test.arg', [1, 2, 3], { a2: 'x', __pub_jid: 'j' })).toEqual({
      bound: { a: 1 },
      extra: { args: [2, 3], kwargs: { a2: 'x', __pub_jid: 'j' } },
    });
  });

  it('drops __pub_ keys without varkw', () => {
    expect(bindArgs(echo, 'test.echo', ['hi'], { __pub_jid: '1', __pub_fun: 'test.echo' }).bound).toEqual({
      text: 'hi',
    });
  });

  it.each([
    [echo, 'test.echo', ['a', 'b'], {}, 'echo() takes 1 positional argument but 2 were given', 'type'],
    [echo, 'test.echo', [], {}, "echo() missing 1 required positional argument: 'text'", 'type'],
    [f2, 'm.f', [1, 2, 3], {}, 'f() takes from 1 to 2 positional arguments but 3 were given', 'type'],
    [f2, 'm.f', [], { b: 2 }, "f() missing 1 required positional argument: 'a'", 'type'],
    [g3, 'm.g', [], {}, "g() missing 3 required positional arguments: 'a', 'b', and 'c'", 'type'],
    [g3, 'm.g', [1], {}, "g() missing 2 required positional arguments: 'b' and 'c'", 'type'],
    [ping, 'test.ping', [1], {}, 'ping() takes 0 positional arguments but 1 was given', 'type'],
    // measured on Salt 3006.18: salt-call --local status.time 1 2
    [
      time,
      'status.time',
      [1, 2],
      {},
      'time_() takes from 0 to 1 positional arguments but 2 were given',
      'type',
    ],
    [echo, 'test.echo', ['a'], { text: 'b' }, "echo() got multiple values for argument 'text'", 'type'],
    [echo, 'test.echo', ['a', 'b'], { text: 'c' }, "echo() got multiple values for argument 'text'", 'type'],
    [
      echo,
      'test.echo',
      ['a'],
      { foo: 'bar', n: [1, 'x'], z: null },
      "The following keyword arguments are not valid: foo=bar, n=[1, 'x'], z=None",
      'kwargs',
    ],
    [ping, 'test.ping', [], { x: true }, 'The following keyword arguments are not valid: x=True', 'kwargs'],
  ] as const)('%s %j %j → %s', (spec, fun, args, kwargs, message, kind) => {
    const err = invocationError(() => bindArgs(spec, fun, args, kwargs));
    expect(err.message).toBe(message);
    expect(err.details).toMatchObject({ kind, fun });
  });

  it('reports schema failures with the argument name', () => {
    const err = invocationError(() => bindArgs(echo, 'test.echo', [5], {}));
    expect(err.message).toMatch(/^echo\(\) got an invalid argument 'text': /);
    expect(err.details).toMatchObject({ kind: 'schema' });
  });

  it('returns the parsed (defaulted, transformed) values', () => {
    const spec = defineFunction({
      args: z.object({ n: z.union([z.number(), z.string()]).transform(Number) }),
      run: () => null,
    });
    expect(bindArgs(spec, 'm.n', ['5'], {}).bound).toEqual({ n: 5 });
  });

  it('binds an integral float (1.0) where the schema wants a number, and keeps it where any value goes', () => {
    expect(bindArgs(f2, 'm.f', [float64(2)], { b: float64(3) }).bound).toEqual({ a: 2, b: 3 });
    const kept = bindArgs(g3, 'm.g', [float64(1), 2, 3], {}).bound;
    expect(kept.a).toBeInstanceOf(SaltFloat);
    const err = invocationError(() => bindArgs(echo, 'test.echo', [float64(1)], {}));
    expect(err.message).toMatch(/^echo\(\) got an invalid argument 'text': /);
  });

  it('formats Salt-style job returns for invocation errors', () => {
    const typeErr = invocationError(() => bindArgs(echo, 'test.echo', [], {}));
    // the doc as Python's __doc__ shows it: indented, blank lines empty, closing quotes' indentation
    expect(formatInvocationError('test.echo', typeErr, 'Echo text\n\nCLI Example: x')).toBe(
      "Passed invalid arguments to test.echo: echo() missing 1 required positional argument: 'text'\n\n    Echo text\n\n    CLI Example: x\n    ",
    );
    const kwErr = invocationError(() => bindArgs(echo, 'test.echo', ['a'], { x: 1 }));
    expect(formatInvocationError('test.echo', kwErr)).toBe(
      "ERROR executing 'test.echo': The following keyword arguments are not valid: x=1",
    );
  });
});

describe('yamlifyArg fast path for plain words', () => {
  it('gives what the YAML parser gives', async () => {
    const { saltSafeLoad } = await import('./yamlify-arg.js');
    const words = [
      'hello',
      'echo hi',
      'a,b',
      'x=1',
      '1',
      '-1',
      '+1',
      '0755',
      '0x1F',
      '0b101',
      '1.5',
      '.5',
      '1e3',
      '1.0',
      'yes',
      'No',
      'on',
      'OFF',
      'true',
      'null',
      '~',
      'NULL',
      '.inf',
      '-.inf',
      '.nan',
      'a b  c',
      'web-01',
      'v1.2.3',
      'a/b/c',
      '~user',
    ];
    for (const w of words) {
      const parsed = saltSafeLoad(w);
      expect(yamlifyArg(w), w).toEqual(parsed === undefined ? null : parsed);
    }
  });
});
