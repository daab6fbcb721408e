/**
 * The returner conformance suite: Salt's semantics for every method a returner implements,
 * registered as vitest blocks. Every returner's test file calls it; a method the returner does
 * not implement is skipped (`returner` is required).
 * @example
 * describeReturnerConformance('job_store', async () => {
 *   const dir = mkdtempSync(join(tmpdir(), 'js-'));
 *   const ctx = { opts: { cachedir: dir }, log: silentLogger(), options: {} };
 *   return { def: jobStore, ctx, teardown: async () => rmSync(dir, { recursive: true }) };
 * }, { ageByJid: true });
 *
 * `setup` runs once for the file and should give an empty store that no other test uses at
 * the same time. Tests run in order; the cleanOldJobs tests come last because they remove
 * every job older than a second.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genJid, isJid } from '../../kernel/jid.js';
import type { ReturnerContext, ReturnerDef, StoredReturn } from '../../kernel/jobs/returner.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { confLoad, confReturn, jidAt } from './conformance-data.js';

export { confLoad, confReturn, jidAt } from './conformance-data.js';

/** What a returner can do beyond the required `returner`, where the methods alone do not say. */
export interface ReturnerConformanceFeatures {
  /**
   * A second return for the same jid and minion is refused with SALT_ERR_JOB_DUPLICATE_RETURN
   * (job stores, as Salt's master does to stop replays). Default: true when it has `prepJid`.
   */
  duplicateReturn?: boolean;
  /**
   * `cleanOldJobs` ages a job by its jid's timestamp, so jobs saved with old jids go at once.
   * Default false: only checks that a job stored more than `keepSeconds` ago goes (a store
   * that ages by file time, like local_cache, passes that one).
   */
  ageByJid?: boolean;
  /** Skips the cleanOldJobs test that waits 1.5 s for jobs to age. Default false. */
  skipSlowClean?: boolean;
}

/** What `setup` gives the suite. */
export interface ReturnerConformanceSetup<O> {
  def: ReturnerDef<O>;
  ctx: ReturnerContext<O>;
  teardown?: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function bytesOf(v: unknown): Buffer | undefined {
  return v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : undefined;
}

/** Registers the suite for one returner. */
export function describeReturnerConformance<O>(
  name: string,
  setup: () => Promise<ReturnerConformanceSetup<O>>,
  features: ReturnerConformanceFeatures = {},
): void {
  describe(`returner conformance: ${name}`, () => {
    let def!: ReturnerDef<O>;
    let ctx!: ReturnerContext<O>;
    let teardown: (() => Promise<void>) | undefined;
    // Function names unique to this run, so a store shared with earlier runs still isolates.
    const tag = `c${randomBytes(4).toString('hex')}`;
    const fn = (s: string) => `${tag}_${s}.run`;
    /** A fresh jid, later than every earlier one: from the store when it allocates jids. */
    const newJid = async (): Promise<string> => (def.prepJid ? def.prepJid(ctx) : genJid());
    const dup = () => features.duplicateReturn ?? def.prepJid !== undefined;

    beforeAll(async () => {
      const s = await setup();
      def = s.def;
      ctx = s.ctx;
      teardown = s.teardown;
    });
    afterAll(async () => {
      await def?.close?.(ctx);
      await teardown?.();
    });

    it('has a name and a returner function', () => {
      expect(typeof def.name).toBe('string');
      expect(def.name.length).toBeGreaterThan(0);
      expect(typeof def.returner).toBe('function');
    });

    it('returner accepts a return', async () => {
      const jid = jidAt(new Date());
      await expect(def.returner(confReturn('m-accept', jid, fn('accept')), ctx)).resolves.toBeUndefined();
    });

    describe('prepJid', () => {
      it('gives a valid jid, unique across calls (also concurrent ones)', async (t) => {
        if (!def.prepJid) return t.skip();
        const prep = def.prepJid.bind(def);
        const seqJids: string[] = [];
        for (let i = 0; i < 20; i++) seqJids.push(await prep(ctx));
        const parJids = await Promise.all(Array.from({ length: 20 }, () => prep(ctx)));
        const all = [...seqJids, ...parJids];
        for (const jid of all) {
          expect(isJid(jid), jid).toBe(true);
          expect(jid.slice(0, 20)).toMatch(/^\d{20}$/);
        }
        expect(new Set(all).size).toBe(all.length);
      });

      it('honours passedJid', async (t) => {
        if (!def.prepJid) return t.skip();
        const jid = jidAt(new Date());
        expect(await def.prepJid(ctx, { passedJid: jid })).toBe(jid);
      });
    });

    describe('loads', () => {
      it('saveLoad then getLoad round-trips the load with Minions', async (t) => {
        if (!def.saveLoad || !def.getLoad) return t.skip();
        const jid = await newJid();
        const load = confLoad(jid, fn('load'), ['m1', 'm2'], {
          tgt_type: 'list',
          arg: ['a', 1, { k: 'v', __kwarg__: true }],
          kwargs: { show_timeout: true },
          user: 'sudo_alice',
        });
        await def.saveLoad(jid, load, ['m1', 'm2'], ctx);
        const got = await def.getLoad(jid, ctx);
        expect(got).toBeDefined();
        const { Minions, ...rest } = got ?? {};
        expect(rest).toEqual(load);
        expect([...(Minions ?? [])].sort()).toEqual(['m1', 'm2']);
      });

      it('getLoad of an unknown jid is undefined', async (t) => {
        if (!def.getLoad) return t.skip();
        expect(await def.getLoad(jidAt(new Date(Date.UTC(2001, 0, 1))), ctx)).toBeUndefined();
      });

      it('saveMinions adds to the Minions of a job, once each', async (t) => {
        if (!def.saveMinions || !def.saveLoad || !def.getLoad) return t.skip();
        const jid = await newJid();
        await def.saveLoad(jid, confLoad(jid, fn('minions')), ['m1'], ctx);
        await def.saveMinions(jid, ['m2', 'm3'], ctx);
        await def.saveMinions(jid, ['m3', 'm1'], ctx);
        const got = await def.getLoad(jid, ctx);
        expect([...(got?.Minions ?? [])].sort()).toEqual(['m1', 'm2', 'm3']);
      });
    });

    describe('returns', () => {
      it('returner then getJid gives {id: {return, retcode, success, out?}}', async (t) => {
        if (!def.getJid) return t.skip();
        const jid = await newJid();
        def.saveLoad && (await def.saveLoad(jid, confLoad(jid, fn('ret')), ['m1', 'm2'], ctx));
        await def.returner(confReturn('m1', jid, fn('ret'), { a: 1 }), ctx);
        await def.returner(
          confReturn('m2', jid, fn('ret'), 'failed', { retcode: 1, success: false, out: 'highstate' }),
          ctx,
        );
        expect(await def.getJid(jid, ctx)).toEqual({
          m1: { return: { a: 1 }, retcode: 0, success: true },
          m2: { return: 'failed', retcode: 1, success: false, out: 'highstate' },
        });
      });

      it('keeps per-function retcode and success maps of multi-function jobs', async (t) => {
        if (!def.getJid) return t.skip();
        const jid = await newJid();
        const ret = confReturn(
          'm1',
          jid,
          fn('multi'),
          { 'test.ping': true, 'test.echo': 'hi' },
          {
            fun: ['test.ping', 'test.echo'],
            retcode: { 'test.ping': 0, 'test.echo': 0 },
            success: { 'test.ping': true, 'test.echo': true },
          },
        );
        await def.returner(ret, ctx);
        expect(await def.getJid(jid, ctx)).toEqual({
          m1: { return: ret.return, retcode: ret.retcode, success: ret.success },
        });
      });

      it('getJid of an unknown jid is {}', async (t) => {
        if (!def.getJid) return t.skip();
        expect(await def.getJid(jidAt(new Date(Date.UTC(2001, 0, 2))), ctx)).toEqual({});
      });

      it('refuses a second return for the same jid and minion (SALT_ERR_JOB_DUPLICATE_RETURN)', async (t) => {
        if (!dup()) return t.skip();
        const jid = await newJid();
        await def.returner(confReturn('m1', jid, fn('dup'), 'first'), ctx);
        await expect(def.returner(confReturn('m1', jid, fn('dup'), 'second'), ctx)).rejects.toMatchObject({
          code: 'SALT_ERR_JOB_DUPLICATE_RETURN',
        });
        await def.returner(confReturn('m2', jid, fn('dup'), 'other minion'), ctx);
        if (def.getJid) {
          const got = await def.getJid(jid, ctx);
          expect(got.m1?.return).toBe('first');
          expect(got.m2?.return).toBe('other minion');
        }
      });

      it('bytes, unicode and big nested data survive a round trip', async (t) => {
        if (!def.getJid) return t.skip();
        const jid = await newJid();
        let deep: Record<string, unknown> = { leaf: 'bottom' };
        for (let i = 0; i < 60; i++) deep = { [`level${i}`]: deep, i };
        const big: Record<string, number> = {};
        for (let i = 0; i < 5000; i++) big[`key-${i}`] = i;
        const value = {
          buf: Buffer.from([0, 1, 2, 254, 255]),
          u8: new Uint8Array([9, 8, 7, 0, 200]),
          'ключ 鍵 🔑': 'значение 値 ✓',
          deep,
          big,
          list: [1, -2, 3.5, null, true, false, '', 'x'.repeat(200_000)],
        };
        if (def.saveLoad) {
          await def.saveLoad(
            jid,
            confLoad(jid, fn('bytes'), 'ü*', { arg: ['ümlaut', { κλειδί: 'τιμή' }] }),
            [],
            ctx,
          );
        }
        await def.returner(confReturn('m-ü', jid, fn('bytes'), value), ctx);
        const got = (await def.getJid(jid, ctx))['m-ü'] as StoredReturn | undefined;
        expect(got).toBeDefined();
        const r = got?.return as Record<string, unknown>;
        expect(bytesOf(r.buf)?.equals(Buffer.from([0, 1, 2, 254, 255]))).toBe(true);
        expect(bytesOf(r.u8)?.equals(Buffer.from([9, 8, 7, 0, 200]))).toBe(true);
        const { buf: _b, u8: _u, ...plain } = r;
        const { buf: _b2, u8: _u2, ...expected } = value;
        expect(plain).toEqual(expected);
        if (def.getLoad && def.saveLoad) {
          const load = await def.getLoad(jid, ctx);
          expect(load?.tgt).toBe('ü*');
          expect(load?.arg).toEqual(['ümlaut', { κλειδί: 'τιμή' }]);
        }
      });
    });

    describe('end states', () => {
      it('an end state shows when there is no return, never hides a real one, and a later return wins', async (t) => {
        if (!def.saveEndState || !def.getJid) return t.skip();
        const jid = await newJid();
        await def.saveEndState(jid, 'm1', 'no_response', ctx);
        expect(await def.getJid(jid, ctx)).toEqual({
          m1: { return: 'Minion did not return. [No response]', state: 'no_response' },
        });
        await def.returner(confReturn('m1', jid, fn('end')), ctx);
        expect(await def.getJid(jid, ctx)).toEqual({ m1: { return: true, retcode: 0, success: true } });
        await def.saveEndState(jid, 'm1', 'not_connected', ctx);
        await def.returner(confReturn('m2', jid, fn('end'), 'real'), ctx);
        await def.saveEndState(jid, 'm2', 'running', ctx);
        await def.saveEndState(jid, 'm3', 'not_connected', ctx);
        expect(await def.getJid(jid, ctx)).toEqual({
          m1: { return: true, retcode: 0, success: true },
          m2: { return: 'real', retcode: 0, success: true },
          m3: { return: 'Minion did not return. [Not connected]', state: 'not_connected' },
        });
      });
    });

    describe('searches', () => {
      it('getFun gives, per minion, the jid of the last job that ran the function', async (t) => {
        if (!def.getFun) return t.skip();
        const f = fn('getfun');
        const j1 = await newJid();
        const j2 = await newJid();
        expect(j2 > j1).toBe(true);
        if (def.saveLoad) {
          await def.saveLoad(j1, confLoad(j1, f), ['m1', 'm2'], ctx);
          await def.saveLoad(j2, confLoad(j2, f), ['m1'], ctx);
        }
        await def.returner(confReturn('m1', j1, f), ctx);
        await def.returner(confReturn('m2', j1, f), ctx);
        await def.returner(confReturn('m1', j2, f), ctx);
        const j3 = await newJid();
        if (def.saveLoad) await def.saveLoad(j3, confLoad(j3, fn('other')), ['m3'], ctx);
        await def.returner(confReturn('m3', j3, fn('other')), ctx);
        expect(await def.getFun(f, ctx)).toEqual({ m1: j2, m2: j1 });
        expect(await def.getFun(fn('never'), ctx)).toEqual({});
      });

      it('getMinions lists every minion that stored a return', async (t) => {
        if (!def.getMinions) return t.skip();
        const jid = await newJid();
        if (def.saveLoad) await def.saveLoad(jid, confLoad(jid, fn('minions')), [], ctx);
        await def.returner(confReturn(`${tag}-minion-a`, jid, fn('minions')), ctx);
        await def.returner(confReturn(`${tag}-minion-b`, jid, fn('minions')), ctx);
        const all = await def.getMinions(ctx);
        expect(all).toContain(`${tag}-minion-a`);
        expect(all).toContain(`${tag}-minion-b`);
        expect(new Set(all).size).toBe(all.length);
      });

      // Jobs at known times for the listing tests: 2019-05-01 .. 2019-05-05, one a day.
      const days = [1, 2, 3, 4, 5].map((d) => new Date(Date.UTC(2019, 4, d, 12, 0, 0)));
      const listJids: string[] = [];
      const saveListJobs = async (): Promise<void> => {
        if (listJids.length || !def.saveLoad) return;
        for (const [i, day] of days.entries()) {
          const jid = jidAt(day);
          listJids.push(jid);
          const f = i % 2 === 0 ? fn('list.even') : fn('list.odd');
          const tgt = i === 4 ? ['web1', 'web2'] : i === 3 ? 'db*' : `web${i}`;
          await def.saveLoad(
            jid,
            confLoad(jid, f, tgt, { tgt_type: i === 4 ? 'list' : 'glob', arg: [i] }),
            [`web${i}`, 'db9'],
            ctx,
          );
        }
      };

      it("getJids lists every stored job in Salt's format_jid_instance shape", async (t) => {
        if (!def.getJids || !def.saveLoad) return t.skip();
        await saveListJobs();
        const all = await def.getJids(ctx);
        const first = listJids[0] as string;
        expect(all[first]).toMatchObject({
          Function: fn('list.even'),
          Arguments: [0],
          Target: 'web0',
          'Target-type': 'glob',
          User: 'root',
          StartTime: `2019, May 01 12:00:00.000${first.slice(17, 20)}`,
        });
        for (const jid of listJids) expect(all[jid]).toBeDefined();
      });

      it('listJobs searches by function glob, target glob, time range and limit, newest first', async (t) => {
        if (!def.listJobs || !def.saveLoad) return t.skip();
        await saveListJobs();
        const ids = async (q: Parameters<NonNullable<ReturnerDef<O>['listJobs']>>[0]) =>
          (await def.listJobs!(q, ctx)).map((j) => j.jid);
        const [d1, d2, d3, d4, d5] = listJids as [string, string, string, string, string];
        expect(await ids({ searchFunction: `${tag}_list.*` })).toEqual([d5, d4, d3, d2, d1]);
        expect(await ids({ searchFunction: fn('list.even') })).toEqual([d5, d3, d1]);
        expect(await ids({ searchFunction: [fn('list.odd'), `${tag}_nothing*`] })).toEqual([d4, d2]);
        expect(await ids({ searchFunction: `${tag}_list.*`, limit: 2 })).toEqual([d5, d4]);
        // target: the job's target text, or one of its targeted minions
        expect(await ids({ searchFunction: `${tag}_list.*`, searchTarget: 'web2' })).toEqual([d5, d3]);
        expect(await ids({ searchFunction: `${tag}_list.*`, searchTarget: 'db*' })).toEqual([
          d5,
          d4,
          d3,
          d2,
          d1,
        ]);
        expect(await ids({ searchFunction: `${tag}_list.*`, searchTarget: ['web1', 'web0'] })).toEqual([
          d5,
          d2,
          d1,
        ]);
        const at = (d: number, h = 0) => new Date(Date.UTC(2019, 4, d, h));
        expect(await ids({ searchFunction: `${tag}_list.*`, startTime: at(2), endTime: at(4, 23) })).toEqual([
          d4,
          d3,
          d2,
        ]);
        expect(await ids({ searchFunction: `${tag}_list.*`, startTime: at(4) })).toEqual([d5, d4]);
        expect(await ids({ searchFunction: `${tag}_list.*`, endTime: at(1, 23) })).toEqual([d1]);
        expect(await ids({ searchFunction: `${tag}_none.*` })).toEqual([]);
        const one = (await def.listJobs({ searchFunction: fn('list.odd'), limit: 1 }, ctx))[0];
        expect(one).toMatchObject({ jid: d4, Function: fn('list.odd'), Target: 'db*', Arguments: [3] });
        // every job, newest first, limited
        const newest = await ids({ limit: 3 });
        expect(newest.length).toBeLessThanOrEqual(3);
        expect([...newest].sort().reverse()).toEqual(newest);
      });
    });

    describe('events', () => {
      it('eventReturn accepts a batch of events, bytes included', async (t) => {
        if (!def.eventReturn) return t.skip();
        const events: SaltEvent[] = [
          { tag: 'salt/job/1/new', data: { jid: '1', minions: ['m1'], _stamp: new Date().toISOString() } },
          { tag: 'salt/auth', data: { id: 'm-ü', result: true, pub: Buffer.from([1, 2, 3]) } },
        ];
        await expect(def.eventReturn(events, ctx)).resolves.toBeUndefined();
        await expect(def.eventReturn([], ctx)).resolves.toBeUndefined();
      });
    });

    describe('cleanOldJobs', () => {
      it.skipIf(features.skipSlowClean)(
        'removes jobs stored more than keepSeconds ago, with their returns, and keeps newer ones',
        async (t) => {
          if (!def.cleanOldJobs) return t.skip();
          const old = await newJid();
          def.saveLoad && (await def.saveLoad(old, confLoad(old, fn('clean')), ['m1'], ctx));
          await def.returner(confReturn('m1', old, fn('clean')), ctx);
          await sleep(2100);
          const fresh = await newJid();
          def.saveLoad && (await def.saveLoad(fresh, confLoad(fresh, fn('clean')), ['m1'], ctx));
          await def.returner(confReturn('m1', fresh, fn('clean')), ctx);
          const removed = await def.cleanOldJobs(1, ctx);
          expect(removed).toBeGreaterThanOrEqual(1);
          if (def.getJid) {
            expect(await def.getJid(old, ctx)).toEqual({});
            expect(Object.keys(await def.getJid(fresh, ctx))).toEqual(['m1']);
          }
          if (def.getLoad && def.saveLoad) {
            expect(await def.getLoad(old, ctx)).toBeUndefined();
            expect(await def.getLoad(fresh, ctx)).toBeDefined();
          }
        },
      );

      it('ages jobs by their jid: jobs with old jids go, newer ones stay', async (t) => {
        if (!def.cleanOldJobs || !features.ageByJid) return t.skip();
        const old = [jidAt(new Date(Date.UTC(2018, 0, 1))), jidAt(new Date(Date.now() - 7200_000))];
        const keep = [jidAt(new Date(Date.now() - 600_000)), await newJid()];
        for (const jid of [...old, ...keep]) {
          def.saveLoad && (await def.saveLoad(jid, confLoad(jid, fn('age')), ['m1', 'm2'], ctx));
          await def.returner(confReturn('m1', jid, fn('age')), ctx);
          await def.returner(confReturn('m2', jid, fn('age')), ctx);
        }
        const removed = await def.cleanOldJobs(3600, ctx);
        expect(removed).toBeGreaterThanOrEqual(old.length);
        for (const jid of old) {
          if (def.getJid) expect(await def.getJid(jid, ctx)).toEqual({});
          if (def.getLoad) expect(await def.getLoad(jid, ctx)).toBeUndefined();
        }
        for (const jid of keep) {
          if (def.getJid) expect(Object.keys(await def.getJid(jid, ctx)).sort()).toEqual(['m1', 'm2']);
          if (def.getLoad && def.saveLoad) expect(await def.getLoad(jid, ctx)).toBeDefined();
        }
        if (def.getFun)
          expect(Object.values(await def.getFun(fn('age'), ctx)).every((j) => keep.includes(j))).toBe(true);
        expect(await def.cleanOldJobs(3600, ctx)).toBe(0);
      });
    });
  });
}
