import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aptDir } from '../modules/_pkg-apt-repos.js';
import { runState } from './_pkg-test-ctx.js';
import pkgrepo from './pkgrepo.js';

let dir: string;
const original = aptDir.root;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tsalt-t-apt-'));
  mkdirSync(path.join(dir, 'sources.list.d'));
  aptDir.root = dir;
});
afterEach(() => {
  aptDir.root = original;
  rmSync(dir, { recursive: true, force: true });
});

// The expectations are what Salt 3006.18 (with python-apt, as on Debian) returned for the same
// states on /etc/apt/sources.list.d on this machine.
describe('pkgrepo states on apt one-line sources', () => {
  it('managed adds a line once, then finds it configured; comps changes are reported', async () => {
    const name = 'deb http://tsalt-t.invalid/debian bookworm main';
    const file = path.join(dir, 'sources.list.d', 'tsalt-t.list');
    const kw = { name, file, refresh: false };
    const wouldText = `Package repo '${name}' would be configured. This may cause pkg states to behave differently than stated if this action is repeated without test=True, due to the differences in the configured repositories.`;
    await expect(runState(pkgrepo, 'managed', kw, true)).resolves.toEqual({
      name,
      changes: { repo: name },
      result: null,
      comment: wouldText,
    });
    await expect(runState(pkgrepo, 'managed', kw)).resolves.toEqual({
      name,
      changes: { repo: name },
      result: true,
      comment: `Configured package repo '${name}'`,
    });
    expect(readFileSync(file, 'utf8')).toBe(`${name}\n`);
    await expect(runState(pkgrepo, 'managed', kw)).resolves.toEqual({
      name,
      changes: {},
      result: true,
      comment: `Package repo '${name}' already configured`,
    });
    await expect(runState(pkgrepo, 'managed', { ...kw, comps: 'main,contrib' }, true)).resolves.toEqual({
      name,
      changes: { comps: { new: ['contrib', 'main'], old: ['main'] } },
      result: null,
      comment: wouldText,
    });
    await expect(runState(pkgrepo, 'managed', { ...kw, comps: 'main,contrib' })).resolves.toEqual({
      name,
      changes: {
        comps: { new: ['main', 'contrib'], old: ['main'] },
        line: { new: `${name} contrib`, old: name },
      },
      result: true,
      comment: `Configured package repo '${name}'`,
    });
    const other = 'deb http://tsalt-t.invalid/nothere bookworm main';
    await expect(runState(pkgrepo, 'absent', { name: other })).resolves.toEqual({
      name: other,
      changes: {},
      result: true,
      comment: `Package repo ${other} is absent`,
    });
    await expect(runState(pkgrepo, 'absent', { name }, true)).resolves.toEqual({
      name,
      changes: {},
      result: null,
      comment: `Package repo '${name}' will be removed. This may cause pkg states to behave differently than stated if this action is repeated without test=True, due to the differences in the configured repositories.`,
    });
  });
});
