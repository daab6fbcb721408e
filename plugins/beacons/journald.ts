/**
 * The `journald` beacon (Salt's `salt/beacons/journald.py`, which needs the systemd journal's
 * Python library): refused here as Salt's is without it, since no journald runs for tsalt to
 * read. Its configuration is checked as Salt checks it.
 *
 *   beacons:
 *     journald:
 *       - services:
 *           sshd: { SYSLOG_IDENTIFIER: sshd, PRIORITY: 6 }
 */
import { defineBeacon } from '../../kernel/index.js';

const MISSING = 'systemd library is missing.';

export default defineBeacon({
  name: 'journald',
  doc: 'Refused: no systemd journal to read.',
  validate(config) {
    const services = config.services;
    if (typeof services === 'object' && services !== null) {
      for (const match of Object.values(services))
        if (typeof match !== 'object' || match === null || Array.isArray(match))
          return 'Services configuration for journald beacon must be a list of dictionaries.';
    }
    return MISSING;
  },
  beacon() {
    throw new Error(`Unable to load journald beacon: ${MISSING}`);
  },
});
