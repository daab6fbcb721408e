import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fileMod from '../modules/file.js';
import logrotateMod from '../modules/logrotate.js';
import type { StateFunctions } from '../plugins/states/index.js';
import { builtinStateFunctions } from '../test/support/builtin-states.js';
import { moduleCtx } from './_test-ctx.js';

// A throwaway config (with an include, without which Salt 3006.18's logrotate.set fails on
// `'include files'`); expectations and resulting files: Salt 3006.18's for the same SLS.
let dir: string;
let conf: string;
let states: StateFunctions;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-logrotate-state-'));
  conf = path.join(dir, 'logrotate.conf');
  await mkdir(path.join(dir, 'd'));
  await writeFile(path.join(dir, 'd', 'inc.conf'), '/var/log/s16-inc.log {\n    daily\n    rotate 3\n}\n');
  await writeFile(
    conf,
    `weekly\nrotate 4\ncompress\ninclude ${dir}/d\n\n/var/log/s16-wtmp {\n    monthly\n    minsize 1M\n    rotate 1\n}\n`,
  );
  states = builtinStateFunctions(moduleCtx([fileMod, logrotateMod]));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const set = (kw: Record<string, unknown>, test = false) =>
  states.call('logrotate.set', { name: 'lr', conf_file: conf, ...kw }, { test });

describe('logrotate.set', () => {
  it('a directive: already set (a string number as the int), predicted, set', async () => {
    expect(await set({ key: 'rotate', value: '4' })).toEqual({
      name: 'lr',
      changes: {},
      result: true,
      comment: "Command 'rotate' already has value: 4",
    });
    expect(await set({ key: 'rotate', value: 7 }, true)).toEqual({
      name: 'lr',
      changes: { old: 4, new: 7 },
      result: null,
      comment: "Command 'rotate' will be set to value: 7",
    });
    expect(await set({ key: 'rotate', value: 7 })).toEqual({
      name: 'lr',
      changes: { old: 4, new: 7 },
      result: true,
      comment: "Set command 'rotate' value: 7",
    });
    expect(await readFile(conf, 'utf8')).toMatch(/^rotate 7$/m);
    expect(await set({ key: 'compress', value: true })).toMatchObject({
      result: true,
      comment: "Command 'compress' already has value: True",
    });
  });

  it('a block setting: in the main file and in an included one', async () => {
    expect(await set({ key: '/var/log/s16-wtmp', value: 'rotate', setting: 1 })).toMatchObject({
      result: true,
      comment: "Block '/var/log/s16-wtmp' command 'rotate' already has value: 1",
    });
    expect(await set({ key: '/var/log/s16-wtmp', value: 'rotate', setting: '2' }, true)).toEqual({
      name: 'lr',
      changes: { old: 1, new: 2 },
      result: null,
      comment: "Block '/var/log/s16-wtmp' command 'rotate' will be set to value: 2",
    });
    expect(await set({ key: '/var/log/s16-inc.log', value: 'rotate', setting: 9 })).toEqual({
      name: 'lr',
      changes: { old: 3, new: 9 },
      result: true,
      comment: "Set block '/var/log/s16-inc.log' command 'rotate' value: 9",
    });
    expect(await readFile(path.join(dir, 'd', 'inc.conf'), 'utf8')).toContain('    rotate 9\n');
  });

  it('a setting asked of a directive counts as absent; a missing file is an error', async () => {
    expect(await set({ key: 'rotate', value: 'x', setting: 2 }, true)).toMatchObject({
      result: null,
      changes: { old: false, new: 2 },
    });
    await expect(set({ key: 'rotate', value: 4, conf_file: path.join(dir, 'nope.conf') })).rejects.toThrow(
      /No such file or directory/,
    );
  });
});
