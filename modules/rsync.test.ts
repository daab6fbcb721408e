import { describe, expect, it } from 'vitest';
import { rsyncChanges, rsyncSummary } from '../states/rsync.js';
import { rsyncOptions } from './rsync.js';

const none = {
  delete: false,
  force: '',
  update: 0,
  passwordfile: null,
  exclude: null,
  excludefrom: null,
  dryrun: false,
  rsh: null,
};

describe("rsync: Salt's options and its reading of rsync's output", () => {
  it("maps the flags in Salt's order; excludefrom wins over exclude", () => {
    expect(rsyncOptions(none)).toEqual(['-avz']);
    expect(
      rsyncOptions({
        ...none,
        delete: true,
        force: 1,
        update: 'yes',
        rsh: 'ssh -p 2',
        passwordfile: '/p',
        exclude: ['a', 'b'],
        dryrun: true,
      }),
    ).toEqual([
      '-avz',
      '--delete',
      '--force',
      '--update',
      '--rsh=ssh -p 2',
      '--password-file',
      '/p',
      '--exclude',
      'a',
      '--exclude',
      'b',
      '--dry-run',
    ]);
    expect(rsyncOptions({ ...none, exclude: 'x', excludefrom: '/f' })).toEqual([
      '-avz',
      '--exclude-from',
      '/f',
    ]);
  });

  it('summary is the last paragraph, changes the listed files sorted', () => {
    const out =
      'sending incremental file list\ndeleting old.txt\nz.txt\na/\n\nsent 10 bytes  received 20 bytes  60.00 bytes/sec\ntotal size is 3  speedup is 0.10';
    expect(rsyncSummary(out)).toBe(
      '- sent 10 bytes\n- received 20 bytes\n- 60.00 bytes/sec\n- total size is 3\n- speedup is 0.10',
    );
    expect(rsyncChanges(out)).toEqual({ copied: 'a/\nz.txt', deleted: 'old.txt' });
    expect(rsyncChanges('sending incremental file list\n\nsent 1 bytes')).toEqual({
      copied: 'N/A',
      deleted: 'N/A',
    });
  });
});
