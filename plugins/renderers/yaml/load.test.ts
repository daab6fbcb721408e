// Expected values recorded from Salt 3006.18's own loader on this machine:
// PYTHONPATH=/tmp/render-py-stubs:/tmp/wtcli-salt/src python3 -c "import salt.utils.yamlloader as y; print(y.load(DOC, Loader=y.SaltYamlSafeLoader))"
import { describe, expect, it } from 'vitest';
import { float64, SaltFloat } from '../../../kernel/util.js';
import { loadYaml } from './load.js';

const load = (s: string) => loadYaml(s, { path: 'x/init.sls' });
const fail = (s: string, o: { maxNodes?: number } = {}) => {
  try {
    loadYaml(s, { path: 'x/init.sls', chain: ['top.sls, line 4'], ...o });
  } catch (err) {
    return err as Error & { code: string; details: { line: number; column: number } };
  }
  throw new Error('expected an error');
};

describe('loadYaml (Salt 3006 SaltYamlSafeLoader)', () => {
  it('keeps an integral float a float (1.0, !!float 3, a 1.0 key), other numbers as they are', () => {
    const data = load('a: 1.0\nb: 2.5\nc: 3\nd: [-2.0, 0.0]\n1.0: key\ne: !!float 3\nf: 1e3') as Record<
      string,
      unknown
    >;
    expect(data.a).toBeInstanceOf(SaltFloat);
    expect(data).toEqual({
      a: float64(1),
      b: 2.5,
      c: 3,
      d: [float64(-2), float64(0)],
      '1.0': 'key',
      e: float64(3),
      f: '1e3',
    });
    expect(data.c).toBe(3);
  });

  it('resolves plain scalars with YAML 1.1 rules as Salt does', () => {
    const doc =
      'a: 0644\nb: yes\nc: 2001-12-14\nd: 1:20\ne: 0x1f\nf: 010\ng: on\nh: ~\ni: 1e3\nj: 0.5\nk: .inf\nl: 0b11\nm: 1_000\nn: "0644"\no: 08\np: 1:2:3.5\nq: OFF\nr: y\ns: 1.0e+3';
    expect(load(doc)).toEqual({
      a: 644,
      b: true,
      c: '2001-12-14',
      d: 80,
      e: 31,
      f: 10,
      g: true,
      h: null,
      i: '1e3',
      j: 0.5,
      k: Number.POSITIVE_INFINITY,
      l: 3,
      m: 1000,
      n: '0644',
      o: '08',
      p: 3723.5,
      q: false,
      r: 'y',
      s: float64(1000),
    });
  });

  it('merges << keys with explicit keys winning, and shares aliases', () => {
    expect(load('base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 5\nl: &l [1]\nm: *l')).toEqual({
      base: { x: 1, y: 2 },
      other: { x: 1, y: 5 },
      l: [1],
      m: [1],
    });
  });

  it('refuses duplicate keys with Salt message, file, line and column', () => {
    const err = fail('a: 1\nb: 2\na: 3');
    expect(err.code).toBe('SALT_ERR_RENDER_SYNTAX');
    expect(err.message).toContain("x/init.sls, line 3, column 1: found conflicting ID 'a'");
    expect(err.message).toContain('  3 | a: 3');
    expect(err.message).toContain('included from top.sls, line 4');
  });

  it('refuses keys equal under Python == (1, 1.0, true; 0, no; 010 and 10), not 1 and "1"', () => {
    expect(fail('1: a\n1.0: b').message).toMatch(/line 2, column 1: found conflicting ID '1.0'/);
    expect(fail('yes: 1\ntrue: 2').message).toMatch(/found conflicting ID 'True'/);
    expect(fail('0: a\nno: b').message).toMatch(/found conflicting ID 'False'/);
    expect(fail('010: a\n10: b').message).toMatch(/found conflicting ID '10'/);
    expect(fail('- x: 1\n  y: 2\n  x: 3').message).toMatch(/line 3, column 3: found conflicting ID 'x'/);
    expect(fail('x: &m {a: 1}\ny:\n  <<: *m\n  <<: *m').message).toMatch(/found conflicting ID 'a'/);
    expect(load('1: x\n"2": y')).toEqual({ 1: 'x', 2: 'y' });
    expect(() => load('1: x\n"1": y')).not.toThrow();
  });

  // PyYAML reads quoted scalars and flow collections without checking the indentation of their
  // continuation lines (a multi-line `{{ x | yaml }}` inside an indented block).
  it('reads under-indented continuation lines of quoted scalars and flow collections as PyYAML', () => {
    expect(load('a:\n  - contents: "line one\nline two"\n')).toEqual({
      a: [{ contents: 'line one line two' }],
    });
    expect(load("a:\n  b: 'x\n\n  y'\n  c: 1\n")).toEqual({ a: { b: 'x\ny', c: 1 } });
    expect(load('a:\n  b: "x \\\ny"\n')).toEqual({ a: { b: 'x y' } });
    expect(load('a:\n  b: "x\\"\ny"\n')).toEqual({ a: { b: 'x" y' } });
    expect(load('a:\n  b: "x\n# no comment\ny"\n')).toEqual({ a: { b: 'x # no comment y' } });
    expect(load('a:\n  b: "x\n\ty"\n')).toEqual({ a: { b: 'x y' } });
    expect(load("a:\n  - c: 'it''s\nz'\n  - d\n")).toEqual({ a: [{ c: "it's z" }, 'd'] });
    expect(load('a:\n  b: [ "x,\ny", {k: "v\nw"},\n  # c ]\nz ]\n')).toEqual({
      a: { b: ['x, y', { k: 'v w' }, 'z'] },
    });
    expect(load('a:\n  b: {x: 1,\ny: 2}\n  c: "p\nq"\n')).toEqual({ a: { b: { x: 1, y: 2 }, c: 'p q' } });
    expect(load('a:\n  b: |\n    "x\n  c: "y\nz"\n')).toEqual({ a: { b: '"x\n', c: 'y z' } });
  });

  it('still refuses what PyYAML refuses there, at the original column', () => {
    expect(fail('a:\n  b: "x\n---\ny"\n').code).toBe('SALT_ERR_RENDER_SYNTAX');
    expect(fail('a:\n  b: "x\n').code).toBe('SALT_ERR_RENDER_SYNTAX');
    expect(fail('a:\n  "k\nm": 1\n').code).toBe('SALT_ERR_RENDER_SYNTAX');
    expect(fail('a:\n  b: x\n y\n').code).toBe('SALT_ERR_RENDER_SYNTAX');
    const err = fail('a:\n  b: "x\ny" extra\n');
    expect(err.details).toMatchObject({ line: 3, column: 4 });
    expect(err.message).toContain('  3 | y" extra');
  });

  it('names the line and column of syntax errors, tabs and unrendered {{ }} keys', () => {
    expect(fail('a: [1, 2\nb: 3').details.line).toBe(2);
    expect(fail('a:\n\tb: 1').message).toMatch(/line 2, column 1: Illegal tab character/);
    expect(fail('{{ foo }}: 1').message).toMatch(/double curly-brace/);
    expect(fail('a: 1\nb: !foo x').message).toMatch(
      /line 2, column 4: could not determine a constructor for the tag '!foo'/,
    );
    expect(fail('a: 1\n---\nb: 2').message).toMatch(/line 2.*single document/);
  });

  it('stops an alias bomb with SALT_ERR_RENDER_LIMIT', () => {
    let doc = 'a: &a [1,1,1,1,1,1,1,1,1]\n';
    const names = 'abcdefghij';
    for (let i = 1; i < names.length; i++) {
      const prev = `*${names[i - 1]}`;
      doc += `${names[i]}: &${names[i]} [${Array(9).fill(prev).join(',')}]\n`;
    }
    const started = Date.now();
    const err = fail(doc);
    expect(err.code).toBe('SALT_ERR_RENDER_LIMIT');
    expect(err.message).toMatch(/alias bomb/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('an empty document is null', () => {
    expect(load('')).toBeNull();
    expect(load('# only a comment\n')).toBeNull();
  });
});
