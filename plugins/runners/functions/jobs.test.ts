import { describe, expect, it } from 'vitest';
import { filterJobs } from '../../../client/job-cache-view.js';
import type { StoredReturn } from '../../../kernel/jobs/returner.js';
import { silentLogger } from '../../../kernel/log.js';
import type { JobCacheView, RunnerContext } from '../../../kernel/runners/define.js';
import jobs from './jobs.js';

const JID = '20261122133105123456';
const load = {
  fun: 'test.echo',
  arg: ['hi'],
  tgt: '*',
  tgt_type: 'glob',
  user: 'root',
  jid: JID,
  Minions: ['a', 'b', 'c'],
};

function fakeCtx(): RunnerContext & { warnings: string[]; code: number } {
  const cache: JobCacheView = {
    name: 'fake',
    listJobs: async (q) =>
      filterJobs(
        {
          [JID]: {
            Function: 'test.echo',
            Arguments: ['hi'],
            Target: '*',
            'Target-type': 'glob',
            User: 'root',
            StartTime: '2026, Nov 22 13:31:05.123456',
            // the stores know the targeted minions (Salt's list_jobs does not show them)
            Minions: ['a', 'b', 'c'],
          },
        },
        q,
      ),
    getLoad: async (jid) => (jid === JID ? (load as never) : undefined),
    getJid: async (jid): Promise<Record<string, StoredReturn>> =>
      jid === JID ? { a: { return: 'hi' }, b: { return: '' } } : {},
    getFun: async () => ({}),
  };
  const ctx = {
    opts: {},
    log: silentLogger(),
    jid: 'x',
    user: 'root',
    jobs: cache,
    warnings: [] as string[],
    code: 0,
    fireEvent: () => {},
    progress: () => {},
    warn: (m: string) => ctx.warnings.push(m),
    setRetcode: (c: number) => {
      ctx.code = c;
    },
    client: { cmd: async () => ({}), cmdFull: async () => ({ jid: '', returns: {}, missing: {} }) },
    call: async () => undefined,
    functions: { docs: async () => ({}) },
    signal: new AbortController().signal,
  };
  return ctx as never;
}

const run = (fn: keyof typeof jobs.functions, ctx: RunnerContext, args: Record<string, unknown>) =>
  jobs.functions[fn]!.run(ctx, args as never, { args: [], kwargs: {} });

describe('jobs runner', () => {
  it('lookup_jid returns {minion: return}, and the missing minions with missing=True', async () => {
    const ctx = fakeCtx();
    expect(await run('lookup_jid', ctx, { jid: JID, returned: true, missing: false })).toEqual({
      a: 'hi',
      b: '',
    });
    expect(await run('lookup_jid', ctx, { jid: JID, returned: true, missing: true })).toEqual({
      a: 'hi',
      b: '',
      c: 'Minion did not return',
    });
  });

  it('a jid that is not a jid, or is unknown, is a clear error', async () => {
    await expect(run('lookup_jid', fakeCtx(), { jid: 'abc' })).rejects.toThrow('"abc" is not a jid');
    await expect(run('print_job', fakeCtx(), { jid: '20000101000000000000' })).rejects.toThrow(
      'was not found in the job cache',
    );
  });

  it('print_job and list_jobs have Salt shapes; an empty search warns', async () => {
    const printed = (await run('print_job', fakeCtx(), { jid: JID })) as Record<
      string,
      Record<string, unknown>
    >;
    expect(printed[JID]).toMatchObject({
      Function: 'test.echo',
      Arguments: ['hi'],
      Target: '*',
      'Target-type': 'glob',
      User: 'root',
      Minions: ['a', 'b', 'c'],
    });
    expect(printed[JID]?.StartTime).toBe('2026, Nov 22 13:31:05.123456');
    const ctx = fakeCtx();
    const listed = (await run('list_jobs', ctx, { search_function: 'test.*' })) as Record<string, object>;
    expect(Object.keys(listed)).toEqual([JID]);
    // Salt's list_jobs entries carry no Minions (list_job and print_job do)
    expect(Object.keys(listed[JID]!)).toEqual([
      'Function',
      'Arguments',
      'Target',
      'Target-type',
      'User',
      'StartTime',
    ]);
    expect(await run('list_jobs', ctx, { search_target: 'nomatch' })).toEqual({});
    expect(ctx.warnings).toEqual(['No jobs in the job cache match the search.']);
  });

  it('exit_success is False for minions that did not return truthy, with retcode 1', async () => {
    const ctx = fakeCtx();
    expect(await run('exit_success', ctx, { jid: JID })).toEqual({ a: true, b: false, c: false });
    expect(ctx.code).toBe(1);
  });

  it('last_run prints the newest job; False when none matches', async () => {
    expect(Object.keys((await run('last_run', fakeCtx(), {})) as object)).toEqual([JID]);
    expect(await run('last_run', fakeCtx(), { function: 'no.*' })).toBe(false);
  });
});
