/**
 * The `glxinfo` beacon (Salt's `salt/beacons/glxinfo.py`): runs `DISPLAY=:0 glxinfo` as the
 * configured user and, with `screen_event`, fires `{screen_available}` tagged `screen_event`
 * on the first run and whenever whether the display answers changes. Without glxinfo on the
 * PATH the module is not offered, as in Salt.
 *
 *   beacons:
 *     glxinfo:
 *       - user: frank
 *       - screen_event: True
 */
import { defineBeacon } from '../../kernel/index.js';
import { pyTruthy } from '../../kernel/python/index.js';
import { which } from '../../modules/_which.js';

export default defineBeacon({
  available: () => (which('glxinfo') ? true : 'glxinfo is missing.'),
  name: 'glxinfo',
  doc: 'Fire whether a display is available (glxinfo answers on :0).',
  validate(config) {
    if (!('user' in config))
      return 'Configuration for glxinfo beacon must include a user as glxinfo is not available to root.';
    return true;
  },
  async beacon(ctx, config) {
    const retcode = await ctx.call('cmd.retcode', ['DISPLAY=:0 glxinfo'], {
      runas: config.user,
      python_shell: true,
    });
    if (!pyTruthy(config.screen_event)) return [];
    const available = retcode === 0;
    const last = ctx.state.get('screen_available') as boolean | undefined;
    ctx.state.set('screen_available', available);
    return last === available ? [] : [{ tag: 'screen_event', screen_available: available }];
  },
});
