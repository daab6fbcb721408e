/**
 * The tuned module and states through a real masterless salt-call and Debian's tuned-adm, with
 * no TuneD daemon (none can run without systemd and a system bus here, and it would retune the
 * machine). tuned-adm then works in its no-daemon mode: `profile` only records the preset
 * profile in /etc/tuned (saved and put back here), `off` is refused, and its first line about
 * the missing daemon makes Salt's parsing of `list` (and of `active` once a profile is preset)
 * fail: tsalt answers what Salt 3006 answers in that setup.
 *
 * Root only (tuned-adm writes /etc/tuned).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { localCaller } from '../support/local-call.js';

const PRESET = ['/etc/tuned/active_profile', '/etc/tuned/profile_mode'];
const skip =
  process.platform !== 'linux' || process.getuid?.() !== 0
    ? 'needs root on Linux'
    : !which('tuned-adm')
      ? 'needs tuned'
      : existsSync('/run/tuned/tuned.pid')
        ? 'a TuneD daemon runs here'
        : undefined;

type Ret = { name: string; result: boolean | null; comment: string; changes: Record<string, unknown> };
const only = (local: unknown): Ret => Object.values(local as Record<string, Ret>)[0] as Ret;

describe.skipIf(!!skip)(
  `tuned module and states without a daemon${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const root = mkdtempSync(join(tmpdir(), 'tuned-'));
    const call = localCaller(root, 'tuned');
    const saved = PRESET.map((f) => (existsSync(f) ? readFileSync(f) : undefined));
    const restore = () =>
      PRESET.forEach((f, i) => {
        const was = saved[i];
        if (was === undefined) rmSync(f, { force: true });
        else writeFileSync(f, was);
      });
    afterEach(restore);
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it("answers 'none' for the active profile and False for off, as tuned-adm fails", async () => {
      writeFileSync('/etc/tuned/active_profile', '');
      expect((await call('tuned.active')).local).toBe('none');
      const off = await call('tuned.off');
      expect(off.local).toBe(false);
      expect(off.code).toBe(1);
    }, 120_000);

    it('presets a known profile and refuses an unknown one', async () => {
      expect((await call('tuned.profile', 'virtual-guest')).local).toBe('virtual-guest');
      expect(readFileSync('/etc/tuned/active_profile', 'utf8').trim()).toBe('virtual-guest');
      const bad = await call('tuned.profile', 'nosuchprofile');
      expect(bad.local).toBe(false);
      expect(bad.code).toBe(1);
      // with a preset profile and no daemon, tuned-adm active prints no "Current active profile:"
      const active = await call('tuned.active');
      expect(active.code).toBe(1);
      expect(active.output).toContain("AttributeError: 'NoneType' object has no attribute 'group'");
    }, 120_000);

    it("fails to list as Salt's parse of the daemon-less text does", async () => {
      const listed = await call('tuned.list');
      expect(listed.code).toBe(1);
      expect(listed.output).toContain('IndexError: list index out of range');
    }, 120_000);

    it('tuned.off reports what it would change under test, and a malformed return when off fails', async () => {
      writeFileSync('/etc/tuned/active_profile', '');
      const predicted = only((await call('state.single', 'tuned.off', 'name=x', 'test=True')).local);
      expect(predicted).toMatchObject({
        name: 'off',
        result: null,
        comment: 'The state of "none" will be changed.',
        changes: { old: 'none', new: 'Profile will be set to off' },
      });
      const failed = only((await call('state.single', 'tuned.off', 'name=x')).local);
      expect(failed.result).toBe(false);
      expect(failed.comment).toContain('Malformed state return');
    }, 120_000);
  },
);
