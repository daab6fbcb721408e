/**
 * The runtime against real Salt 3006.18: each fixture holds an SLS file of `test.*` states,
 * the low chunks `state.show_low_sls` printed for it, and what `salt-call --local
 * state.apply <sls>` returned with and without `test=True` (times masked, tracebacks cut to
 * their first and last lines). The runtime runs the same chunks through the real state
 * loader and the real `cmd.retcode` and must give the same entries, keys in the same order.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LowChunk, StateRunResult } from '../types.js';
import { TSALTT_MODULE } from './custom-module.test-d.js';
import { harness } from './harness.test-d.js';
import { runChunks } from './index.js';

interface Fixture {
  sls: string;
  low: LowChunk[] | string[];
  run: Record<string, Record<string, unknown>> | string[];
  test: Record<string, Record<string, unknown>> | string[];
  /** With `failhard: True` in the minion config. */
  fh?: Record<string, Record<string, unknown>>;
  fhtest?: Record<string, Record<string, unknown>>;
}

const MODES = {
  run: { test: false, failhard: false },
  test: { test: true, failhard: false },
  fh: { test: false, failhard: true },
  fhtest: { test: true, failhard: true },
} as const;

// the throwaway state module the custom fixtures use, as a states_dirs folder
const statesDir = mkdtempSync(join(tmpdir(), 'tsalt-t-states-'));
writeFileSync(join(statesDir, 'tsaltt.js'), TSALTT_MODULE);
afterAll(() => rmSync(statesDir, { recursive: true, force: true }));

const DIR = new URL('./fixtures/', import.meta.url);
const PILLAR = { foo: 'hello', bar: 3, lst: [1, 2], dct: { a: 1 }, flag: true };

/** Masks what differs from run to run, as the fixtures were masked. */
function mask(ret: StateRunResult): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [tag, entry] of Object.entries(ret)) {
    const e: Record<string, unknown> = { ...entry };
    if ('start_time' in e) {
      expect(e.start_time).toMatch(/^\d\d:\d\d:\d\d(\.\d{6})?$/);
      e.start_time = '<start_time>';
    }
    if ('duration' in e) {
      expect(typeof e.duration).toBe('number');
      e.duration = '<duration>';
    }
    if (
      typeof e.comment === 'string' &&
      e.comment.startsWith('An exception occurred in this state: Traceback')
    ) {
      const lines = e.comment.replace(/\n$/, '').split('\n');
      e.comment = `An exception occurred in this state: Traceback (most recent call last):\n...\n${lines.at(-1)}\n`;
    }
    out[tag] = e;
  }
  return out;
}

const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map(
    (f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(new URL(f, DIR), 'utf8')) as Fixture] as const,
  )
  // a list is a compile error (recursive requisite on itself): the compiler's, not the runtime's
  .filter(([, fx]) => !Array.isArray(fx.run));

describe('the runtime gives what Salt 3006.18 gives for the same low chunks', () => {
  for (const [name, fx] of fixtures) {
    for (const mode of (['run', 'test', 'fh', 'fhtest'] as const).filter((m) => fx[m])) {
      it(`${name} (${mode})`, async () => {
        const rc = harness({ ...MODES[mode], pillar: PILLAR, stateDirs: [statesDir] });
        const got = mask(await runChunks(fx.low as LowChunk[], rc));
        const want = fx[mode] as Record<string, Record<string, unknown>>;
        expect(got).toEqual(want);
        // same tags in the same order, same keys in the same order
        expect(Object.keys(got)).toEqual(Object.keys(want));
        for (const tag of Object.keys(want))
          expect(Object.keys(got[tag] ?? {})).toEqual(Object.keys(want[tag] ?? {}));
      });
    }
  }
});
