/**
 * The `btmp` beacon (Salt's `salt/beacons/btmp.py`): fires each failed login recorded in
 * `/var/log/btmp` since the last run, for the configured `users` (and `groups`' members), each
 * with an optional `time_range`, and `defaults`. Refused where the file does not exist.
 *
 *   beacons:
 *     btmp:
 *       - users:
 *           gareth: { time_range: { start: '8am', end: '4pm' } }
 */
import { existsSync } from 'node:fs';
import { defineBeacon } from '../../kernel/index.js';
import { filterRecords, newRecords, validateUtmp } from './_utmp.js';

const BTMP = '/var/log/btmp';

export default defineBeacon({
  name: 'btmp',
  doc: 'Emit the failed logins recorded in /var/log/btmp since the last run.',
  validate(config) {
    return existsSync(BTMP) ? validateUtmp('btmp', config) : `${BTMP} does not exist.`;
  },
  beacon(ctx, config) {
    return filterRecords(ctx, config, newRecords(BTMP, ctx.state));
  },
});
