/**
 * The `wtmp` beacon (Salt's `salt/beacons/wtmp.py`): fires each login (type 7, `action: login`)
 * and logout (type 8, `action: logout`, its user taken from the login on the same line) and other
 * record added to `/var/log/wtmp` since the last run, for the configured `users` (and `groups`'
 * members), each with an optional `time_range`, and `defaults`. Refused where the file does not
 * exist.
 *
 *   beacons:
 *     wtmp:
 *       - users:
 *           gareth: {}
 */
import { existsSync } from 'node:fs';
import { defineBeacon } from '../../kernel/index.js';
import { filterRecords, newRecords, validateUtmp } from './_utmp.js';

const WTMP = '/var/log/wtmp';
const LOGIN_TYPE = 7;
const LOGOUT_TYPE = 8;

export default defineBeacon({
  name: 'wtmp',
  doc: 'Emit the logins and logouts recorded in /var/log/wtmp since the last run.',
  validate(config) {
    return existsSync(WTMP) ? validateUtmp('wtmp', config) : `${WTMP} does not exist.`;
  },
  beacon(ctx, config) {
    const ttyKey = (line: string) => `tty.${line}`;
    return filterRecords(ctx, config, newRecords(WTMP, ctx.state), (event) => {
      if (event.type === LOGIN_TYPE) {
        event.action = 'login';
        ctx.state.set(ttyKey(event.line), event.user);
      } else if (event.type === LOGOUT_TYPE) {
        event.action = 'logout';
        const user = ctx.state.get(ttyKey(event.line));
        if (typeof user === 'string') {
          event.user = user;
          ctx.state.delete(ttyKey(event.line));
        }
      }
    });
  },
});
