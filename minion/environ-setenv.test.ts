import { describe, expect, it } from 'vitest';
import { applyEnvironSetenv } from './environ-setenv.js';

describe("applyEnvironSetenv (Salt's setenv rules)", () => {
  it('sets strings, sets False to empty or unsets it, clears the rest with clear_all', () => {
    const env: NodeJS.ProcessEnv = { A: '1', B: '2', C: '3' };
    expect(applyEnvironSetenv({ environ: { A: 'x', B: false } }, env)).toBe(true);
    expect(env).toEqual({ A: 'x', B: '', C: '3' });
    expect(applyEnvironSetenv({ environ: { B: false }, false_unsets: true }, env)).toBe(true);
    expect(env).toEqual({ A: 'x', C: '3' });
    expect(applyEnvironSetenv({ environ: { A: 'y' }, clear_all: true, false_unsets: true }, env)).toBe(true);
    expect(env).toEqual({ A: 'y' });
  });

  it('refuses an environ that is not a map, and stops at a value neither a string nor False', () => {
    const env: NodeJS.ProcessEnv = { A: '1' };
    expect(applyEnvironSetenv({ environ: ['A'] }, env)).toBe(false);
    expect(applyEnvironSetenv({}, env)).toBe(false);
    expect(applyEnvironSetenv({ environ: { B: 'b', C: 3, D: 'd' } }, env)).toBe(false);
    expect(env).toEqual({ A: '1', B: 'b' });
  });
});
