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
