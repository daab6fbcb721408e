import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { echoToTty, shellInfo, shells } from './_cmd-shells.js';

describe('cmd shells', () => {
  it("lists /etc/shells' entries without comments or blank lines", async () => {
    const want = readFileSync('/etc/shells', 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(want.length).toBeGreaterThan(0);
    expect(await shells()).toEqual(want);
  });

  it("shell_info: Salt's answers for an unknown shell, a missing one, and one that runs", async () => {
    expect(await shellInfo('foo')).toEqual({
      error: 'Salt does not know how to get the version number for foo',
      installed: null,
    });
    expect(await shellInfo('cmd')).toEqual({
      error: "Unable to run command 'cmd.exe /C ver' Reason: [Errno 2] No such file or directory: 'cmd.exe'",
      installed: false,
    });
    // Salt 3006 searches the shell's bytes with a text pattern: a TypeError for any shell that runs
    await expect(shellInfo('bash')).rejects.toMatchObject({
      code: 'SALT_ERR_INVOCATION',
      message: 'cannot use a string pattern on a bytes-like object',
    });
  });

  it('tty refuses other devices and reports a write that fails', async () => {
    expect(await echoToTty('foo', 'x')).toEqual({ Error: 'The specified device is not a valid TTY' });
    expect(await echoToTty('pts999', 'x')).toEqual({ Error: 'Echoing to /dev/pts/999 returned error' });
  });
});
