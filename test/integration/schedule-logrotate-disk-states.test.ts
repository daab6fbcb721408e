/**
 * The schedule, logrotate and disk state modules end to end: a real master serves an SLS, a
 * real minion applies it. `schedule.present` reaches the minion's running scheduler (the job
 * process asks the main process, which saves `minion.d/_schedule.conf`), as `schedule.list`
 * then shows; `logrotate.set` edits a throwaway config; `disk.status` checks `/`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

type Entry = { result: boolean | null; changes: Record<string, unknown>; comment: string };

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('schedule, logrotate and disk states through real daemons', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const srv = join(c.root, 'srv', 'salt');
  const conf = join(c.root, 'out', 'logrotate.conf');
  const scheduleConf = join(c.minionConfDir('m1'), 'minion.d', '_schedule.conf');

  beforeAll(async () => {
    write(conf, `weekly\nrotate 4\ninclude ${join(c.root, 'out', 'd')}\n`);
    mkdirSync(join(c.root, 'out', 'd'));
    write(
      join(srv, 'ops.sls'),
      [
        's16_job:',
        '  schedule.present:',
        '    - function: test.ping',
        '    - minutes: 30',
        'rotate:',
        '  logrotate.set:',
        '    - key: rotate',
        '    - value: 7',
        `    - conf_file: ${conf}`,
        'root_disk:',
        '  disk.status:',
        '    - name: /',
        '    - maximum: "100%"',
        '',
      ].join('\n'),
    );
    write(join(srv, 'pause.sls'), ['s16_job:', '  schedule.disabled: []', ''].join('\n'));
    write(join(srv, 'gone.sls'), ['s16_job:', '  schedule.absent: []', ''].join('\n'));
    Object.assign(master, { file_roots: { base: [srv] } });
    await c.startMaster();
    await c.startMinion('m1');
  }, 90_000);
  afterAll(() => c.stop());

  const apply = async (sls: string, ...args: string[]) => {
    const r = await c.saltJson(['m1', 'state.apply', sls, ...args]);
    return { code: r.code, ret: r.data.m1 as Record<string, Entry> };
  };
  const listed = async () => (await c.saltJson(['m1', 'schedule.list', 'return_yaml=False'])).data.m1;

  it('predicts, applies, then finds everything in place; disables and removes the job', async () => {
    const predicted = await apply('ops', 'test=True');
    expect(predicted.ret['schedule_|-s16_job_|-s16_job_|-present']).toMatchObject({
      result: true,
      comment: 'Job: s16_job would be added to schedule.',
    });
    expect(predicted.ret['logrotate_|-rotate_|-rotate_|-set']).toMatchObject({
      result: null,
      changes: { old: 4, new: 7 },
      comment: "Command 'rotate' will be set to value: 7",
    });
    expect(existsSync(scheduleConf) ? readFileSync(scheduleConf, 'utf8') : '').not.toContain('s16_job');
    expect(await listed()).not.toHaveProperty('s16_job');

    const first = await apply('ops');
    expect(first.code).toBe(0);
    expect(first.ret['schedule_|-s16_job_|-s16_job_|-present']).toMatchObject({
      result: true,
      changes: { s16_job: 'added' },
      comment: 'Adding new job s16_job to schedule',
    });
    expect(first.ret['logrotate_|-rotate_|-rotate_|-set']).toMatchObject({
      result: true,
      comment: "Set command 'rotate' value: 7",
    });
    expect(first.ret['disk_|-root_disk_|-/_|-status']).toMatchObject({
      result: true,
      comment: 'Disk used space in acceptable range',
    });
    expect(readFileSync(conf, 'utf8')).toMatch(/^rotate 7$/m);
    expect(await listed()).toMatchObject({ s16_job: { function: 'test.ping', minutes: 30, enabled: true } });
    expect(readFileSync(scheduleConf, 'utf8')).toContain('s16_job');

    const again = await apply('ops');
    expect(again.ret['schedule_|-s16_job_|-s16_job_|-present']).toMatchObject({
      result: true,
      changes: {},
      comment: 'Job s16_job in correct state',
    });
    expect(again.ret['logrotate_|-rotate_|-rotate_|-set']).toMatchObject({
      result: true,
      comment: "Command 'rotate' already has value: 7",
    });

    const off = await apply('pause');
    expect(off.ret['schedule_|-s16_job_|-s16_job_|-disabled']).toMatchObject({
      result: true,
      comment: 'Disabled job s16_job from schedule',
    });
    expect(await listed()).toMatchObject({ s16_job: { enabled: false } });

    const gone = await apply('gone');
    expect(gone.ret['schedule_|-s16_job_|-s16_job_|-absent']).toMatchObject({
      result: true,
      changes: { s16_job: 'removed' },
      comment: 'Removed job s16_job from schedule',
    });
    expect(await listed()).toEqual({});
    expect(readFileSync(scheduleConf, 'utf8')).not.toContain('s16_job');
  }, 120_000);
});
