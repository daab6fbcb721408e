import { describe, expect, it } from 'vitest';
import { runningUnits } from './_service-systemd.js';

// systemctl's list-units lines as systemd 252 prints them with --full --no-legend --no-pager
describe("service.get_running's reading of systemctl", () => {
  it('keeps running units of the known types, services without .service, sorted', () => {
    const out = [
      '  ssh.service                 loaded active running OpenBSD Secure Shell server',
      '  cron.service                loaded active running Regular background program processing daemon',
      '  systemd-tmpfiles-setup.service loaded active exited Create Volatile Files and Directories',
      '● broken.service              loaded failed failed  A broken one',
      '  dbus.socket                 loaded active running D-Bus System Message Bus Socket',
      '  -.mount                     loaded active mounted Root Mount',
      '  user@0.service              loaded active running User Manager for UID 0',
      '  session-1.scope             loaded active running Session 1 of User root',
      '',
    ].join('\n');
    expect(runningUnits(out)).toEqual(['cron', 'dbus.socket', 'ssh', 'user@0']);
  });
});
