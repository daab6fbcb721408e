import { describe, expect, it } from 'vitest';
import { mediaType, parseBody, parseForm, toLowstate, toMapping } from './body.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

describe('parseBody', () => {
  it('JSON (also without a Content-Type and as text/plain)', () => {
    expect(parseBody('application/json', '{"client": "local"}')).toEqual({ client: 'local' });
    expect(parseBody('application/json; charset=utf-8', '[1]')).toEqual([1]);
    expect(parseBody(undefined, '{"a": 1}')).toEqual({ a: 1 });
    expect(parseBody('text/plain', '{"a": 1}')).toEqual({ a: 1 });
  });
  it('form-urlencoded: repeated keys make a list, as CherryPy does', () => {
    expect(
      parseBody('application/x-www-form-urlencoded', 'client=local&tgt=m0&fun=test.arg&arg=a&arg=b'),
    ).toEqual({
      client: 'local',
      tgt: 'm0',
      fun: 'test.arg',
      arg: ['a', 'b'],
    });
    expect(parseForm('username=salt%20dev&password=a%2Bb')).toEqual({
      username: 'salt dev',
      password: 'a+b',
    });
  });
  it('YAML', () => {
    expect(parseBody('application/x-yaml', '- client: local\n  tgt: "*"\n  fun: test.ping\n')).toEqual([
      { client: 'local', tgt: '*', fun: 'test.ping' },
    ]);
    expect(parseBody('text/yaml', 'a: 1')).toEqual({ a: 1 });
  });
  it('an empty body is undefined', () => {
    expect(parseBody('application/json', '  ')).toBeUndefined();
  });
  it('malformed bodies and unknown types are clear errors', () => {
    expect(codeOf(() => parseBody('application/json', '{"client": '))).toBe('NETAPI_ERR_BAD_BODY');
    expect(codeOf(() => parseBody('application/x-yaml', 'a: [1, 2'))).toBe('NETAPI_ERR_BAD_BODY');
    expect(codeOf(() => parseBody('application/x-yaml', 'a: &x 1\nb: *y'))).toBe('NETAPI_ERR_BAD_BODY');
    expect(codeOf(() => parseBody('application/xml', '<a/>'))).toBe('NETAPI_ERR_MEDIA_TYPE');
    expect(codeOf(() => parseBody('application/x-www-form-urlencoded', '__proto__=x'))).toBe(
      'NETAPI_ERR_BAD_BODY',
    );
  });
  it('mediaType', () => {
    expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaType(undefined)).toBe('');
  });
});

describe('toLowstate', () => {
  it('wraps one chunk and makes arg a list', () => {
    expect(toLowstate({ client: 'local', fun: 'cmd.run', arg: 'ls' })).toEqual([
      { client: 'local', fun: 'cmd.run', arg: ['ls'] },
    ]);
    expect(toLowstate([{ client: 'local', arg: null }])).toEqual([{ client: 'local', arg: [] }]);
    expect(toLowstate([{ client: 'local', arg: ['a', 'b'] }])).toEqual([
      { client: 'local', arg: ['a', 'b'] },
    ]);
  });
  it('refuses what is not lowstate', () => {
    for (const bad of [undefined, null, [], 'text', 42, [{ a: 1 }, 'x'], [[{ a: 1 }]]]) {
      expect(
        codeOf(() => toLowstate(bad)),
        JSON.stringify(bad),
      ).toBe('NETAPI_ERR_BAD_LOWSTATE');
    }
    expect(codeOf(() => toLowstate(Array.from({ length: 1001 }, () => ({}))))).toBe(
      'NETAPI_ERR_BAD_LOWSTATE',
    );
  });
  it('toMapping takes one mapping (or a list of one)', () => {
    expect(toMapping({ a: 1 })).toEqual({ a: 1 });
    expect(toMapping([{ a: 1 }])).toEqual({ a: 1 });
    expect(toMapping(undefined)).toEqual({});
    expect(codeOf(() => toMapping([1, 2]))).toBe('NETAPI_ERR_BAD_BODY');
  });
});
