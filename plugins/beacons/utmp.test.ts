// utmp records written by utmpdump (util-linux), read as Salt's btmp/wtmp beacons read them
import { execSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beaconCtx } from './_test-ctx.js';
import { filterRecords, newRecords, parseWhen, validateUtmp } from './_utmp.js';
import wtmp from './wtmp.js';

const dir = mkdtempSync(join(tmpdir(), 'utmp-beacon-'));
const LOGIN =
  '[7] [04242] [ts/9] [bo21usr ] [pts/9       ] [bo21.example        ] [0.0.0.0        ] [2026-11-29T13:00:00,000000+00:00]\n';
const LOGOUT =
  '[8] [04242] [ts/9] [        ] [pts/9       ] [                    ] [0.0.0.0        ] [2026-11-29T13:05:00,000000+00:00]\n';

function records(text: string): Buffer {
  execSync(`utmpdump -r > ${join(dir, 'r.bin')}`, { input: text, stdio: ['pipe', 'pipe', 'ignore'] });
  return readFileSync(join(dir, 'r.bin'));
}

describe('utmp records (btmp, wtmp)', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads records with Salt field names, only those added after the first run', () => {
    const file = join(dir, 'wtmp');
    appendFileSync(file, records(LOGIN));
    const state = new Map<string, unknown>();
    expect(newRecords(file, state)).toEqual([]);
    appendFileSync(file, records(LOGIN + LOGOUT));
    const got = newRecords(file, state);
    expect(got).toHaveLength(2);
    expect(got[0]).toEqual({
      type: 7,
      PID: 4242,
      line: 'pts/9',
      inittab: 'ts/9',
      user: 'bo21usr',
      hostname: 'bo21.example',
      exit_status: 0,
      session: 0,
      time: 0,
      addr: Date.parse('2026-11-29T13:00:00Z') / 1000,
    });
    expect(newRecords(file, state)).toEqual([]);
  });

  it("validates with Salt's messages", () => {
    expect(validateUtmp('wtmp', { users: ['x'] })).toBe(
      'User configuration for wtmp beacon must be a dictionary.',
    );
    expect(validateUtmp('btmp', { groups: 'g' })).toBe(
      'Group configuration for btmp beacon must be a dictionary.',
    );
    expect(validateUtmp('btmp', { defaults: 'd' })).toBe(
      'Defaults configuration for btmp beacon must be a dictionary.',
    );
    expect(validateUtmp('wtmp', { users: { a: { time_range: { start: '8am' } } } })).toBe(
      'The time_range parameter for wtmp beacon must contain start & end options.',
    );
    expect(validateUtmp('wtmp', { defaults: { time_range: { start: '8am', end: '4pm' } } })).toBe(true);
  });

  it('filters by user and time range; groups ask group.info', async () => {
    const [login] = newRecords(join(dir, 'wtmp'), new Map([['loc', 384]]));
    const noon = new Date();
    noon.setHours(12, 0, 0, 0);
    expect(parseWhen('4pm', noon).getHours()).toBe(16);
    const ctx = beaconCtx(async (fun, args) =>
      fun === 'group.info' && args?.[0] === 'staff' ? { members: ['bo21usr'] } : {},
    );
    expect(await filterRecords(ctx, { users: { other: {} } }, [login!])).toEqual([]);
    expect(await filterRecords(ctx, { groups: { staff: {} } }, [login!])).toEqual([login]);
    expect(
      await filterRecords(ctx, { defaults: { time_range: { start: '0:00', end: '23:59:59' } } }, [login!]),
    ).toEqual([login]);
    expect(
      await filterRecords(
        ctx,
        { users: { bo21usr: { time_range: { start: 'Jan 1 2000', end: 'Jan 2 2000' } } } },
        [login!],
      ),
    ).toEqual([]);
  });

  it('wtmp (the real /var/log/wtmp, put back after) marks logins and gives a logout its line user', async () => {
    const size = statSync('/var/log/wtmp').size;
    try {
      const ctx = beaconCtx();
      // as in Salt, the first run notes the end only once the file has one record
      appendFileSync('/var/log/wtmp', records(LOGIN));
      expect(await wtmp.beacon(ctx, { users: { bo21usr: {} } })).toEqual([]);
      appendFileSync('/var/log/wtmp', records(LOGIN + LOGOUT));
      const got = (await wtmp.beacon(ctx, { users: { bo21usr: {} } })) as Array<Record<string, unknown>>;
      expect(got.map((e) => [e.action, e.user, e.line])).toEqual([
        ['login', 'bo21usr', 'pts/9'],
        ['logout', 'bo21usr', 'pts/9'],
      ]);
    } finally {
      truncateSync('/var/log/wtmp', size);
    }
  });
});
