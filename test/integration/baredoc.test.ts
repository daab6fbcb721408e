/**
 * The baredoc module through a real masterless salt-call: Salt's shapes of the execution and
 * state modules' functions, arguments and docs, read from tsalt's loaders (a name selects a
 * module by its file, as Salt's does).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';

describe('baredoc', () => {
  const root = mkdtempSync(join(tmpdir(), 'baredoc-'));
  const call = localCaller(root, 'baredoc');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("lists a module file's functions with their arguments, or their names", async () => {
    expect((await call('baredoc.list_modules', 'baredoc', 'names_only=True')).local).toEqual({
      // in the order the module file defines them, as Salt's reading of its sources gives
      baredoc: ['list_states', 'list_modules', 'state_docs', 'module_docs'],
    });
    const args = (await call('baredoc.list_modules', 'name=baredoc')).local as Record<string, unknown[]>;
    expect(args.baredoc).toContainEqual({ list_modules: { name: false, names_only: false } });
    expect(args.baredoc).toContainEqual({ module_docs: { args: 'args' } });
    expect((await call('baredoc.list_modules', 'nosuchmodule')).local).toEqual({});
    const all = (await call('baredoc.list_modules', 'names_only=True')).local as Record<string, string[]>;
    expect(Object.keys(all)).toEqual(Object.keys(all).sort());
    expect(all.test).toContain('ping');
  }, 120_000);

  it('lists state modules the same way', async () => {
    expect((await call('baredoc.list_states', 'gnomedesktop', 'True')).local).toEqual({
      gnomedesktop: ['wm_preferences', 'desktop_lockdown', 'desktop_interface'],
    });
    const tuned = (await call('baredoc.list_states', 'tuned')).local as Record<string, unknown[]>;
    expect(tuned).toEqual({ tuned: [{ profile: { name: null } }, { off: { name: null } }] });
  }, 120_000);

  it('gives docs of modules and functions, and refuses what Salt refuses', async () => {
    const docs = (await call('baredoc.module_docs', 'baredoc.list_states')).local as Record<string, string>;
    expect(Object.keys(docs)).toEqual(['baredoc.list_states']);
    expect(docs['baredoc.list_states']).toContain('names_only');
    const states = (await call('baredoc.state_docs', 'tuned')).local as Record<string, string>;
    expect(Object.keys(states)).toEqual(['tuned', 'tuned.off', 'tuned.profile']);
    const fn = await call('baredoc.list_modules', 'baredoc.list_states');
    expect(fn.code).toBe(1);
    expect(fn.output).toContain('Function name given');
    const unknown = await call('baredoc.module_docs', 'nosuchmodule');
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain('IndexError: list index out of range');
  }, 120_000);
});
