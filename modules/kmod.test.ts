import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import kmodMod, { parseLsmod } from './kmod.js';

const ctx = moduleCtx([cmdMod, kmodMod]);
const call = (fn: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
  ctx.call(`kmod.${fn}`, args, kw);

describe('kmod: parse lsmod as Salt does', () => {
  it('keeps every field a string, splits deps, skips the header', () => {
    const out = [
      'Module                  Size  Used by',
      'nf_tables             372736  0',
      'libcrc32c              12288  2 nf_conntrack,nf_tables',
      'short 1',
    ].join('\n');
    expect(parseLsmod(out)).toEqual([
      { size: '372736', module: 'nf_tables', depcount: '0', deps: [] },
      { size: '12288', module: 'libcrc32c', depcount: '2', deps: ['nf_conntrack', 'nf_tables'] },
    ]);
  });
});

// Loading a module is impossible in the sandbox; a module name that exists nowhere gives the
// programs' own errors, which Salt returns as text. Expectations: Salt 3006.18 on this machine.
describe.skipIf(!which('modprobe') || !which('lsmod'))('kmod with the kmod programs', () => {
  it('answers a module that is not there as Salt does', async () => {
    const loaded = (await call('mod_list')) as string[];
    expect(Array.isArray(await call('lsmod'))).toBe(true);
    expect(loaded).toEqual([...loaded].sort());
    expect(await call('is_loaded', ['tsalt_nope'])).toBe(false);
    expect(await call('load', ['tsalt_nope'])).toBe(
      `Error loading module tsalt_nope: modprobe: FATAL: Module tsalt_nope not found in directory /lib/modules/${os.release()}`,
    );
    expect(await call('remove', ['tsalt_nope'])).toBe(
      'Error removing module tsalt_nope: rmmod: ERROR: Module tsalt_nope is not currently loaded',
    );
  });
});

// available() reads /lib/modules/<release>. Where this kernel has none (the sandbox), the test
// makes a throwaway tree with a builtin list and a compressed .ko, and removes it after.
const release = os.release();
const modDir = path.join('/lib/modules', release);
const canMake = process.getuid?.() === 0 && !existsSync(modDir);
const madeRoot = !existsSync('/lib/modules');

describe.skipIf(!canMake)('kmod.available over a throwaway modules tree', () => {
  beforeAll(async () => {
    await mkdir(path.join(modDir, 'kernel', 'fs', 'tsalt'), { recursive: true });
    await writeFile(path.join(modDir, 'modules.builtin'), 'kernel/fs/tsalt_builtin.ko\n');
    await writeFile(path.join(modDir, 'kernel', 'fs', 'tsalt', 'tsalt-test_a.ko.xz'), '');
    await writeFile(path.join(modDir, 'kernel', 'fs', 'tsalt', 'modules.order'), '');
  });
  afterAll(() => rm(madeRoot ? '/lib/modules' : modDir, { recursive: true, force: true }));

  it('lists builtins and .ko files with dashes as underscores, sorted', async () => {
    expect(await call('available')).toEqual(['tsalt_builtin', 'tsalt_test_a']);
    expect(await call('check_available', ['tsalt_test_a'])).toBe(true);
    expect(await call('check_available', ['tsalt-test_a'])).toBe(false);
  });
});

describe('kmod.mod_list only_persist', () => {
  it('reads the modules file (none here or some), never the loaded list', async () => {
    const got = (await call('mod_list', [true])) as string[];
    expect(got).toEqual([...got].sort());
    expect(got.every((m) => !m.startsWith('#'))).toBe(true);
  });
});
