import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { invoke } from './_fake-ctx.js';
import temp from './temp.js';

const parent = mkdtempSync(join(tmpdir(), 'tsalt-t-temp-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));
const call = async (fun: string, arg: unknown[]) => (await invoke(temp, fun, arg)).value as string;
const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });

describe('temp', () => {
  it('makes a private directory and an empty private file named as Python tempfile does', async () => {
    const d = await call('dir', [kw({ prefix: 'abc-', suffix: '.x', parent })]);
    expect(dirname(d)).toBe(parent);
    expect(basename(d)).toMatch(/^abc-[a-z0-9_]{8}\.x$/);
    expect(statSync(d).isDirectory()).toBe(true);
    expect(statSync(d).mode & 0o777).toBe(0o700);
    const f = await call('file', ['', 'tmp', parent]);
    expect(basename(f)).toMatch(/^tmp[a-z0-9_]{8}$/);
    expect(statSync(f).size).toBe(0);
    expect(statSync(f).mode & 0o777).toBe(0o600);
    await expect(call('file', [kw({ parent: join(parent, 'missing') })])).rejects.toThrow(
      /^\[Errno 2\] No such file or directory: '.*missing\/tmp[a-z0-9_]{8}'$/,
    );
  });
});
