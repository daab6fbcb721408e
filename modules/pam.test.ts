import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import pam, { parsePam } from './pam.js';

describe('parsePam (Salt 3006.18 pam._parse, measured)', () => {
  it('reads interface, control flag, module and arguments; skips empty lines and # comments', () => {
    const text =
      '#%PAM-1.0\nauth required pam_unix.so nullok\n\naccount [success=1 default=ignore] pam_succeed_if.so uid < 1000\n';
    expect(parsePam(text)).toEqual([
      { interface: 'auth', control_flag: 'required', module: 'pam_unix.so', arguments: ['nullok'] },
      {
        interface: 'account',
        control_flag: 'success=1 default=ignore',
        module: 'pam_succeed_if.so',
        arguments: ['uid', '<', '1000'],
      },
    ]);
  });

  it("keeps Salt's quirks: a one-word bracketed flag keeps its ']', an indented '#' is a rule", () => {
    expect(parsePam('password [success=ok] pam_deny.so x] mod arg\n')).toEqual([
      { interface: 'password', control_flag: 'success=ok] pam_deny.so x', module: 'mod', arguments: ['arg'] },
    ]);
    expect(parsePam(' # indented\tcomment\n')).toEqual([
      { interface: '#', control_flag: 'indented', module: 'comment', arguments: [] },
    ]);
  });

  it("raises Python's IndexError where Salt's parser indexes past a line's words", () => {
    for (const bad of [
      '@include common-auth\n',
      'auth\n',
      'auth required pam_unix.so\n   \n',
      'auth [x] y]\n',
    ])
      expect(() => parsePam(bad), bad).toThrow('list index out of range');
  });
});

describe('pam.read_file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-pam-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('parses a real file, answers False for a missing one and an OSError for a folder', async () => {
    const file = join(dir, 'svc');
    writeFileSync(file, 'session optional pam_motd.so motd=/run/motd.dynamic noupdate\n');
    const ctx = fakeCtx();
    expect((await invoke(pam, 'read_file', [file], ctx)).value).toEqual([
      {
        interface: 'session',
        control_flag: 'optional',
        module: 'pam_motd.so',
        arguments: ['motd=/run/motd.dynamic', 'noupdate'],
      },
    ]);
    expect((await invoke(pam, 'read_file', [join(dir, 'none')], ctx)).value).toBe(false);
    await expect(invoke(pam, 'read_file', [dir], ctx)).rejects.toThrow(`[Errno 21] Is a directory: '${dir}'`);
  });
});
