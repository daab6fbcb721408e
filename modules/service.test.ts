import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execCtx } from '../states/_pkg-test-ctx.js';
import { canRunInitScripts, removeInitScript, writeInitScript } from './_service-test-script.js';

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

  it('says the systemd-only functions are not available here', async () => {
    await expect(call('service.masked', [NAME])).rejects.toThrow("'service.masked' is not available.");
  });
});
