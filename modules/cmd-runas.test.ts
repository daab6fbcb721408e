import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import { which } from './_which.js';
import cmd from './cmd.js';

// A throwaway user made with useradd (root only), removed with its home afterwards.
const can = process.getuid?.() === 0 && which('useradd') !== null && which('setpriv') !== null;
const user = `tsra${randomBytes(3).toString('hex')}`;
let home = '';
let dir = '';
const ctx = fakeCtx({ grains: { shell: '/bin/sh', kernel: 'Linux' } });
const run = (fun: string, arg: unknown[]) => invoke(cmd, fun, arg, ctx);

beforeAll(() => {
  if (!can) return;
  execFileSync('useradd', ['-m', '-s', '/bin/sh', user]);
  home = execFileSync('getent', ['passwd', user], { encoding: 'utf8' }).split(':')[5] as string;
  dir = mkdtempSync(path.join(os.tmpdir(), 'tsalt-t-runas-'));
});
afterAll(() => {
  if (!can) return;
  execFileSync('userdel', ['-r', user], { stdio: 'ignore' });
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!can)('cmd with runas and group', () => {
  it('runs as the user, in its home, with its identity variables', async () => {
    expect(await run('run', ['id -un', `runas=${user}`])).toEqual({ value: user, retcode: 0 });
    expect((await run('run', ['pwd', `runas=${user}`])).value).toBe(home);
    expect(
      (await run('run', ['echo $HOME $USER $LOGNAME', `runas=${user}`, 'python_shell=True'])).value,
    ).toBe(`${home} ${user} ${user}`);
    const all = (await run('run_all', [['id', '-u'], `runas=${user}`, 'python_shell=False'])).value as {
      stdout: string;
    };
    expect(all.stdout).toBe(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  });

  it('runs with another group', async () => {
    expect((await run('run', ['id -gn', 'group=nogroup'])).value).toBe('nogroup');
    expect((await run('run', ['id -un', `runas=${user}`, 'group=nogroup'])).value).toBe(user);
    expect((await run('run', ['id -gn', `runas=${user}`, 'group=nogroup'])).value).toBe('nogroup');
  });

  it('runs a script as the user', async () => {
    const script = path.join(dir, 'who.sh');
    writeFileSync(script, '#!/bin/sh\nid -un\n');
    const r = (await run('script', [script, `runas=${user}`])).value as { stdout: string; retcode: number };
    expect(r).toMatchObject({ retcode: 0, stdout: user });
  });

  it('names an unknown user or group as Salt does', async () => {
    await expect(run('run', ['true', 'runas=tsalt-no-such-user'])).rejects.toThrow(
      "User 'tsalt-no-such-user' is not available",
    );
    await expect(run('run', ['true', 'group=tsalt-no-such-group'])).rejects.toThrow(
      "Group 'None' is not available",
    );
  });
});
