// Expected values are what Salt 3006.18's salt-call --local file.<fun> returned for the same
// calls on this machine (/tmp/files18/harness.mjs), on throwaway files.
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecContext } from '../kernel/index.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import archive from './archive.js';
import cmd from './cmd.js';
import file from './file.js';

let dir: string;
const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const ctx = (test = false): ExecContext => {
  const c: ExecContext = fakeCtx({
    opts: { cachedir: join(dir, 'cache'), test },
    grains: { kernel: 'Linux' },
    call: async (fun, args = [], kwargs = {}) => {
      const [mod, name] = fun.split('.') as [string, string];
      if (fun === 'config.option') return undefined;
      const m = { cmd, file, archive }[mod];
      if (!m) throw new Error(`no ${fun} in this test`);
      return (await invoke(m, name, [...args, { __kwarg__: true, ...kwargs }], c)).value;
    },
  });
  return c;
};
const call = async (fun: string, ...arg: unknown[]) => (await invoke(file, fun, arg, ctx())).value;
const F = () => join(dir, 'f');
const mode = async () => ((await stat(F())).mode & 0o7777).toString(8);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-t-filechk-'));
  await writeFile(F(), 'hi\n', { mode: 0o644 });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('file.check_perms', () => {
  it('changes the mode and answers [ret, perms]', async () => {
    expect(await call('check_perms', F(), {}, 'root', 'root', '600')).toEqual([
      { name: F(), changes: { mode: '0600' }, comment: '', result: true },
      { luser: 'root', lgroup: 'root', lmode: '0644', cmode: '0600' },
    ]);
    expect(await mode()).toBe('600');
  });

  it("words a missing user and group as Salt's chown does", async () => {
    const [ret] = (await call('check_perms', F(), {}, 'nosuchuser', 'nosuchgroup', '644')) as [
      Record<string, unknown>,
    ];
    expect(ret).toEqual({
      name: F(),
      changes: {},
      comment:
        'User does not exist\nGroup does not exist\n; Failed to change user to nosuchuser; Failed to change group to nosuchgroup',
      result: false,
    });
  });

  it('keeps a string comment of the given ret first, and changes nothing under test', async () => {
    const given = { name: 'x', comment: 'before', changes: {}, result: true };
    const [ret] = (await invoke(file, 'check_perms', [F(), given, 'nobody', null, '0640'], ctx(true)))
      .value as [Record<string, unknown>];
    expect(ret).toEqual({
      name: 'x',
      comment: 'before',
      changes: { user: 'nobody', mode: '0640' },
      result: null,
    });
    expect(await mode()).toBe('644');
  });

  it('fails a path with no SELinux context, and a missing path', async () => {
    const [ret] = (await call('check_perms', F(), {}, 'root', 'root', '644', kw({ seuser: 'system_u' }))) as [
      Record<string, unknown>,
    ];
    expect(ret).toMatchObject({ comment: 'Failed to get selinux attributes', result: false });
    await expect(call('check_perms', join(dir, 'missing'), {}, 'root', 'root', '644')).rejects.toThrow(
      `Path not found: ${join(dir, 'missing')}`,
    );
  });
});

describe('file.check_file_meta and check_managed', () => {
  it('lists what differs', async () => {
    expect(
      await call(
        'check_file_meta',
        join(dir, 'missing'),
        '',
        null,
        null,
        'root',
        'root',
        '644',
        null,
        'base',
      ),
    ).toEqual({ newfile: join(dir, 'missing') });
    expect(
      await call(
        'check_file_meta',
        F(),
        '',
        null,
        null,
        'nobody',
        0,
        '600',
        null,
        'base',
        kw({ contents: 'other' }),
      ),
    ).toEqual({
      diff: '--- \n+++ \n@@ -1 +1 @@\n-hi\n+other',
      user: 'nobody',
      mode: '0600',
    });
  });

  it('answers [result, comment]; owner and mode are not checked under the temp folder', async () => {
    const args = [F(), null, '', null, 'nobody', 'root', '600', null, null, null, null, 'base'];
    expect(await call('check_managed', ...args, kw({ contents: 'hi\n' }))).toEqual([
      true,
      `The file ${F()} is in the correct state`,
    ]);
    expect(await call('check_managed', ...args, kw({ contents: 'x' }))).toEqual([
      null,
      'The following values are set to be changed:\ndiff: --- \n+++ \n@@ -1 +1 @@\n-hi\n+x\n',
    ]);
  });
});

describe('file.list_backups_dir', () => {
  it("groups a folder's backups by name, newest first, real dates only", async () => {
    const bk = join(dir, 'cache', 'file_backup', dir.slice(1), 'bk');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(bk, 'sub'), { recursive: true });
    for (const [n, data] of [
      ['f.txt_Sat_Nov_28_10:00:00_123456_2026', 'a'],
      ['f.txt_Sun_Nov_29_03:00:00_5_2026', 'bb'],
      ['f.txt_Fri_Feb_30_03:00:00_5_2026', 'x'],
      ['g_Xyz_Nov_30_01:02:03_000001_2026', 'd'],
      ['g_Tue_Dec_1_1:2:3_7_2026', 'e'],
      ['h_x.txt_Sun_Nov_29_03:00:00_5_2026', 'f'],
    ] as const)
      await writeFile(join(bk, n), data);
    expect((await readdir(bk)).length).toBe(7);
    const got = await call('list_backups_dir', `${join(dir, 'bk')}/`);
    expect(got).toEqual({
      'f.txt': {
        0: {
          'Backup Time': 'Sun Nov 29 2026 03:00:00.500000',
          Size: 2,
          Location: join(bk, 'f.txt_Sun_Nov_29_03:00:00_5_2026'),
        },
        1: {
          'Backup Time': 'Sat Nov 28 2026 10:00:00.123456',
          Size: 1,
          Location: join(bk, 'f.txt_Sat_Nov_28_10:00:00_123456_2026'),
        },
      },
      g: {
        0: {
          'Backup Time': 'Tue Dec 01 2026 01:02:03.700000',
          Size: 1,
          Location: join(bk, 'g_Tue_Dec_1_1:2:3_7_2026'),
        },
      },
      h: {},
      sub: {},
    });
    expect(Object.keys((await call('list_backups_dir', `${join(dir, 'bk')}/`, 1)) as object)).toHaveLength(4);
    // list_backups reads the stamps the same way: Feb 30 is no date
    expect(Object.keys((await call('list_backups', join(dir, 'bk', 'f.txt'))) as object)).toEqual(['0', '1']);
    expect(file.functions.list_backup).toBe(file.functions.list_backups);
    expect(file.functions.remove_backup).toBe(file.functions.delete_backup);
  });
});
