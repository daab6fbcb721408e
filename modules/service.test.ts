import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execCtx } from '../states/_pkg-test-ctx.js';
import {
  canRunInitScripts,
  removeInitScript,
  systemdOffline,
  writeInitScript,
} from './_service-test-script.js';

const NAME = 'tsalt-t-svcmod';
const call = (fun: string, args: unknown[] = [], kwargs: Record<string, unknown> = {}) =>
  execCtx().call(fun, args, kwargs);

describe.skipIf(!canRunInitScripts())('service module, Debian sysvinit backend', () => {
  beforeAll(() => {
    removeInitScript(NAME);
    writeInitScript(NAME);
  });
  afterAll(() => removeInitScript(NAME));

  it('lists, starts, stops, restarts and reloads an init script as Salt does', async () => {
    await expect(call('service.available', [NAME])).resolves.toBe(true);
    await expect(call('service.missing', [NAME])).resolves.toBe(false);
    await expect(call('service.available', ['tsalt-t-nosuch'])).resolves.toBe(false);
    expect(await call('service.get_all')).toContain(NAME);
    await expect(call('service.status', [NAME])).resolves.toBe(false);
    await expect(call('service.reload', [NAME])).resolves.toBe(false);
    await expect(call('service.start', [NAME])).resolves.toBe(true);
    await expect(call('service.status', [NAME])).resolves.toBe(true);
    await expect(call('service.status', ['tsalt-t-svcmo*'])).resolves.toEqual({ [NAME]: true });
    await expect(call('service.restart', [NAME])).resolves.toBe(true);
    await expect(call('service.reload', [NAME])).resolves.toBe(true);
    await expect(call('service.force_reload', [NAME])).resolves.toBe(true);
    await expect(call('service.status', [NAME])).resolves.toBe(true);
    await expect(call('service.status', [NAME, 'tsalt-t-no-such-process'])).resolves.toBe(false);
    await expect(call('service.stop', [NAME])).resolves.toBe(true);
    await expect(call('service.status', [NAME])).resolves.toBe(false);
    await expect(call('service.start', ['tsalt-t-nosuch'])).resolves.toBe(false);
  });

  it('reads boot links for enabled/disabled and changes them with update-rc.d', async () => {
    await expect(call('service.enabled', [NAME])).resolves.toBe(false);
    await expect(call('service.disabled', [NAME])).resolves.toBe(true);
    execFileSync('update-rc.d', [NAME, 'defaults'], { stdio: 'ignore' });
    await expect(call('service.enabled', [NAME])).resolves.toBe(true);
    expect(await call('service.get_enabled')).toContain(NAME);
    await expect(call('service.disable', [NAME])).resolves.toBe(true);
    await expect(call('service.enabled', [NAME])).resolves.toBe(false);
    expect(await call('service.get_disabled')).toContain(NAME);
    // Salt enables with `insserv <name> && update-rc.d <name> enable`: without insserv it fails
    const hasInsserv = (() => {
      try {
        execFileSync('sh', ['-c', 'command -v insserv'], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    })();
    await expect(call('service.enable', [NAME])).resolves.toBe(hasInsserv);
  });

  it.skipIf(systemdOffline())('says the systemd-only functions are not available here', async () => {
    await expect(call('service.masked', [NAME])).rejects.toThrow("'service.masked' is not available.");
    await expect(call('service.offline')).rejects.toThrow("'service.offline' is not available.");
  });

  // Salt 3006.18 on this machine (systemctl installed, no systemd as PID 1) answered each of these
  it.runIf(systemdOffline())("adds systemd's functions in its offline mode, as Salt does", async () => {
    await expect(call('service.offline')).resolves.toMatch(/\/systemctl$/);
    await expect(call('service.get_running')).resolves.toEqual([]);
    expect(await call('service.get_static')).toContain('systemd-journald');
    await expect(call('service.show', ['cron'])).resolves.toEqual({
      "System has not been booted with systemd as init system (PID 1). Can't operate.": '',
      'Failed to connect to bus: Host is down': '',
    });
    await expect(call('service.systemctl_reload')).rejects.toThrow(
      "Problem performing systemctl daemon-reload: System has not been booted with systemd as init system (PID 1). Can't operate.\nFailed to connect to bus: Host is down",
    );
    // runtime=True when not masked asks nothing of systemctl (a runtime mask would create
    // /run/systemd/system, which makes every later check think systemd runs: never done here)
    await expect(call('service.masked', [NAME, true])).resolves.toBe(false);
    await expect(call('service.unmask', [NAME], { runtime: true })).resolves.toBe(true);
    await expect(call('service.masked', [NAME])).resolves.toBe(false);
    await expect(call('service.mask', [NAME])).resolves.toBe(true);
    const refused = `Cannot run in offline mode. Failed to get information on unit '${NAME}'`;
    await expect(call('service.masked', [NAME])).rejects.toThrow(refused);
    await expect(call('service.unmask', [NAME])).rejects.toThrow(refused);
    await expect(call('service.mask', [NAME])).rejects.toThrow(refused);
    // the sysvinit functions still answer for the masked unit, as Salt's do
    await expect(call('service.available', [NAME])).resolves.toBe(true);
  });
});
