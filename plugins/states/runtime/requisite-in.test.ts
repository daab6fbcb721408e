import { describe, expect, it } from 'vitest';
import { applyRequisiteIn } from './requisite-in.js';
import type { Low } from './run-state.js';

const low = (id: string, extra: Record<string, unknown> = {}): Low => ({
  state: 'test',
  fun: 'nop',
  name: id,
  __id__: id,
  __sls__: 's',
  ...extra,
});

describe('applyRequisiteIn', () => {
  it("turns _in forms into their targets' requisites and prereqs into prerequired, as Salt's requisite_in", () => {
    const chunks = [
      low('a', { require_in: [{ test: 'b' }], watch_in: ['c'], prereq_in: { test: 'c' } }),
      low('b'),
      low('c'),
      low('d', { prereq: [{ sls: 's' }] }),
    ];
    applyRequisiteIn(chunks);
    expect(chunks[1]?.require).toEqual([{ test: 'a' }]);
    expect(chunks[2]).toMatchObject({ watch: [{ test: 'a' }], prereq: [{ test: 'a' }] });
    expect(chunks[0]?.prerequired).toEqual([{ test: 'c' }, { test: 'd' }]);
    expect(chunks[3]?.prerequired).toEqual([{ test: 'd' }]);
  });

  it('adds nothing twice when the compiler already applied them', () => {
    const chunks = [
      low('a', { require_in: ['b'], prerequired: [{ test: 'c' }] }),
      low('b', { require: ['a'] }),
      low('c', { prereq: ['a'] }),
    ];
    const before = structuredClone(chunks);
    applyRequisiteIn(chunks);
    expect(chunks).toEqual(before);
  });

  it("extends the id a {state: x} form names, not other states whose name is x (ntp-formula's watch_in)", () => {
    const chunks = [
      low('conf', { state: 'file', watch_in: [{ service: 'ntp' }] }),
      low('ntp', { state: 'service' }),
      low('ntpd', { state: 'service', name: 'ntp' }),
      low('other', { state: 'service', name: 'web' }),
      low('conf2', { state: 'file', require_in: [{ service: 'web' }] }),
    ];
    applyRequisiteIn(chunks);
    expect(chunks[1]?.watch).toEqual([{ file: 'conf' }]);
    expect(chunks[2]?.watch).toBeUndefined();
    expect(chunks[3]?.require).toEqual([{ file: 'conf2' }]);
  });
});
