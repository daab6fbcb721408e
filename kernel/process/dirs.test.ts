import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SaltError } from '../errors.js';
import { ensureDirs } from './dirs.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-dirs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ensureDirs', () => {
  it('creates nested directories with the given mode and accepts existing ones', async () => {
    const pki = join(dir, 'etc', 'pki', 'master');
    const cache = join(dir, 'cache');
    await ensureDirs([{ path: pki, mode: 0o700 }, { path: cache }]);
    expect((await stat(pki)).isDirectory()).toBe(true);
    expect((await stat(pki)).mode & 0o777).toBe(0o700);
    await ensureDirs([{ path: pki, mode: 0o700 }, { path: cache }]);
  });

  it('fails with SALT_ERR_PROCESS_DIR naming the path when a parent is a regular file', async () => {
    const file = join(dir, 'regular');
    await writeFile(file, 'x');
    const target = join(file, 'sub', 'dir');
    const err = await ensureDirs([{ path: join(dir, 'fine') }, { path: target }]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SaltError);
    expect((err as SaltError).code).toBe('SALT_ERR_PROCESS_DIR');
    expect((err as SaltError).message).toContain(target);
    expect((err as SaltError).message).toMatch(/ENOTDIR|EEXIST/);
  });

  it('fails when the path itself is a regular file', async () => {
    const file = join(dir, 'is-a-file');
    await writeFile(file, 'x');
    await expect(ensureDirs([{ path: file }])).rejects.toMatchObject({ code: 'SALT_ERR_PROCESS_DIR' });
  });

  it.skipIf(process.getuid?.() === 0)('fails when the directory is not writable', async () => {
    const ro = join(dir, 'read-only');
    await ensureDirs([{ path: ro, mode: 0o500 }]).catch(() => {});
    const err = await ensureDirs([{ path: ro }]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as SaltError).code).toBe('SALT_ERR_PROCESS_DIR');
    expect((err as SaltError).message).toContain('permission denied (EACCES)');
  });
});
