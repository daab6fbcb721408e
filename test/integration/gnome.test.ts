/**
 * The gnome module and the gnomedesktop states through a real masterless salt-call, on a
 * throwaway user's real GSettings: gsettings (libglib2.0-bin) in a dbus-run-session, writing
 * through dconf into the user's ~/.config/dconf/user, with the org.gnome.desktop schemas of
 * gsettings-desktop-schemas. What Salt 3006 returns, its quirks included: `get` answers
 * gsettings' text (a string quoted), so the states always "set" string keys; a Python bool
 * handed to `set` is spelled True, which gsettings refuses.
 *
 * Root only (it creates a user, removed afterwards).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { localCaller } from '../support/local-call.js';

const USER = `tsaltg${Math.random().toString(36).slice(2, 8)}`;
const skip =
  process.platform !== 'linux' || process.getuid?.() !== 0
    ? 'needs root on Linux'
    : !which('gsettings') || !which('dbus-run-session') || !which('useradd')
      ? 'needs gsettings, dbus-run-session and useradd'
      : !existsSync('/usr/share/glib-2.0/schemas/org.gnome.desktop.interface.gschema.xml')
        ? 'needs gsettings-desktop-schemas'
        : undefined;

type RunAll = { retcode: number; stdout: string; stderr?: string };
type Ret = { result: boolean | null; comment: string; changes: Record<string, unknown> };
const only = (local: unknown): Ret => Object.values(local as Record<string, Ret>)[0] as Ret;

describe.skipIf(!!skip)(`gnome module and gnomedesktop states${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const root = mkdtempSync(join(tmpdir(), 'gnome-'));
  const call = localCaller(root, 'gnome');
  const u = `user=${USER}`;

  beforeAll(() => {
    const made = spawnSync('useradd', ['--create-home', '--shell', '/bin/sh', USER], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
  });
  afterAll(() => {
    spawnSync('userdel', ['--remove', USER]);
    rmSync(root, { recursive: true, force: true });
  });

  it("reads a user's keys as gsettings prints them, uint32 taken off", async () => {
    expect((await call('gnome.getClockFormat', u)).local).toBe("'24h'");
    expect((await call('gnome.getIdleDelay', u)).local).toBe('300');
    expect((await call('gnome.get', 'org.gnome.desktop.interface', 'clock-show-date', USER)).local).toBe(
      'true',
    );
    const nokey = await call('gnome.get', u, 'schema=org.gnome.desktop.interface', 'key=nokey');
    expect(nokey.local).toBe('');
    expect(nokey.code).toBe(1);
  }, 120_000);

  it("sets keys for the user, refuses values Salt refuses, and keeps Salt's bool spelling", async () => {
    const set = await call('gnome.setClockFormat', '12h', u);
    expect((set.local as RunAll).retcode).toBe(0);
    expect((await call('gnome.getClockFormat', u)).local).toBe("'12h'");
    expect((await call('gnome.setClockFormat', '13h', u)).local).toBe(false);
    expect((await call('gnome.setIdleDelay', '600', u)).local).toMatchObject({ retcode: 0 });
    expect((await call('gnome.getIdleDelay', u)).local).toBe('600');
    expect((await call('gnome.setIdleActivation', '0', u)).local).toBe(false);
    // Salt hands gsettings the Python spelling True, which it does not parse
    const bool = await call('gnome.setClockShowDate', 'True', u);
    expect(bool.local).toMatchObject({ retcode: 1 });
    expect((bool.local as RunAll).stderr).toContain('expected value');
    expect(bool.code).toBe(1);
  }, 120_000);

  it("answers false or Salt's own answer for a user that does not exist, and invalid arguments for none", async () => {
    expect((await call('gnome.getIdleDelay', 'user=nosuchuser22')).local).toBe(false);
    expect((await call('gnome.set', 'user=nosuchuser22', 'schema=s', 'key=k', 'value=v')).local).toEqual({
      retcode: 1,
      stdout: 'User nosuchuser22 does not exist',
    });
    const none = await call('gnome.get');
    expect(none.code).toBe(1);
    expect(none.output).toContain('Passed invalid arguments: getpwnam() argument must be str, not None.');
  }, 120_000);

  it('gnomedesktop states set what differs and say what is already set', async () => {
    await call('gnome.set', u, 'schema=org.gnome.desktop.interface', 'key=clock-format', 'value=12h');
    const r = only(
      (
        await call(
          'state.single',
          'gnomedesktop.desktop_interface',
          'name=di',
          u,
          'clock_format=24h',
          'clock_show_date=true',
          'cursor_size=24',
        )
      ).local,
    );
    expect(r.result).toBe(true);
    expect(r.changes).toEqual({ 'clock-format': 'clock-format:24h' });
    expect(r.comment).toBe(
      'Setting clock-format to 24h, clock-show-date is already set to true, cursor-size is already set to 24',
    );
    expect((await call('gnome.getClockFormat', u)).local).toBe("'24h'");

    const lock = only(
      (await call('state.single', 'gnomedesktop.desktop_lockdown', 'name=dl', u, 'disable_log_out=true'))
        .local,
    );
    expect(lock.changes).toEqual({ 'disable-log-out': 'disable-log-out:true' });
    const again = only(
      (await call('state.single', 'gnomedesktop.desktop_lockdown', 'name=dl', u, 'disable_log_out=true'))
        .local,
    );
    expect(again).toMatchObject({
      result: true,
      changes: {},
      comment: 'disable-log-out is already set to true',
    });

    const bad = only(
      (await call('state.single', 'gnomedesktop.wm_preferences', 'name=wm', u, 'focus_mode=bogus')).local,
    );
    expect(bad.result).toBe(false);
    const missing = only(
      (
        await call(
          'state.single',
          'gnomedesktop.wm_preferences',
          'name=wm',
          'user=nosuchuser22',
          'num_workspaces=4',
        )
      ).local,
    );
    expect(missing).toMatchObject({ result: false, comment: 'User nosuchuser22 does not exist' });
  }, 240_000);
});
