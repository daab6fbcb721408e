import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { beaconCtx } from '../../test/support/beacon-ctx.js';
import glxinfo from './glxinfo.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-glxinfo-beacon-'));

describe('glxinfo beacon', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is offered only where glxinfo is on the PATH, as Salt loads it', () => {
    expect(glxinfo.available?.()).toBe(which('glxinfo') ? true : 'glxinfo is missing.');
  });

  it.runIf(which('glxinfo'))(
    "validates as Salt's and fires screen_event on the first run and on a change",
    async () => {
      expect(glxinfo.validate?.({ screen_event: true })).toBe(
        'Configuration for glxinfo beacon must include a user as glxinfo is not available to root.',
      );
      expect(glxinfo.validate?.({ user: 'nobody' })).toBe(true);
      const ctx = beaconCtx(join(dir, 'salt'));
      const config = { user: 'nobody', screen_event: true };
      // no X server on :0 here: glxinfo fails, so the screen is unavailable
      expect(await glxinfo.beacon(ctx, config)).toEqual([{ tag: 'screen_event', screen_available: false }]);
      expect(await glxinfo.beacon(ctx, config)).toEqual([]);
      expect(await glxinfo.beacon(ctx, { user: 'nobody' })).toEqual([]);
      expect(ctx.calls[0]).toBe('cmd.retcode cmd=DISPLAY=:0 glxinfo runas=nobody python_shell=true');
    },
    240_000,
  );
});
