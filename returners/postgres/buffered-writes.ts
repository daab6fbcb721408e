/**
 * The write side shared by the external job stores (`postgres`, `redis`): every write goes
 * through the store's bounded buffer, so jobs keep running while the server is down, and
 * `prepJid` reserves a jid (trying the next microseconds when another master took it) or, with
 * the server down, hands one out and reserves it once the server is back.
 */
import { type ReturnerContext, type ReturnerDef, SALT_ERR_RETURNER_FAILED } from '../../kernel/index.js';
import { genJid } from '../../kernel/util.js';
import { nextJid } from './job-summary.js';
import type { PendingWrite } from './queries.js';

/** What a buffered store offers the shared methods: `C` is its connection (a pool, a client). */
export interface BufferedStore<C> {
  readonly buffer: { push(item: PendingWrite): void };
  write(method: string, item: PendingWrite): Promise<void>;
  read<T>(method: string, run: (conn: C) => Promise<T>): Promise<T>;
}

export interface BufferedWritesSetup<O extends object, C, S extends BufferedStore<C>> {
  /** The returner's name, for log lines and errors. */
  name: string;
  /** The store for a context (one per distinct server). */
  store(ctx: ReturnerContext<O>): S;
  /** Whether an error means the server is unreachable (then writes are buffered). */
  isDown(err: unknown): boolean;
  /** Reserves `jid` in `store`; false when another master has it. */
  reserveJid(conn: C, jid: string, nocache: boolean, store: S): Promise<boolean>;
  /** Makes new jids (default: Salt's time-based jid); tests force collisions with it. */
  genJid?: (ctx: ReturnerContext<O>) => string;
}

/** How many next-microsecond jids prepJid tries when another master took the one it made. */
const JID_TRIES = 1000;

type WriteMethods<O extends object> = Required<
  Pick<ReturnerDef<O>, 'returner' | 'prepJid' | 'saveLoad' | 'saveMinions' | 'saveEndState' | 'eventReturn'>
>;

/** `returner`, `prepJid`, `saveLoad`, `saveMinions`, `saveEndState` and `eventReturn` over a buffered store. */
export function bufferedWrites<O extends object, C, S extends BufferedStore<C>>(
  o: BufferedWritesSetup<O, C, S>,
): WriteMethods<O> {
  const { name, store, isDown } = o;
  const makeJid = o.genJid ?? ((ctx) => genJid({ unique_jid: Boolean(ctx.opts.unique_jid) }));
  return {
    async returner(ret, ctx) {
      await store(ctx).write('returner', { kind: 'return', ret });
    },

    async prepJid(ctx, opts) {
      const s = store(ctx);
      const nocache = Boolean(opts?.nocache);
      if (opts?.passedJid) {
        await s.write('prepJid', { kind: 'jid', jid: opts.passedJid, nocache }).catch((err: unknown) => {
          ctx.log.error({ err: (err as Error).message }, `${name}: jid reserved locally only`);
        });
        return opts.passedJid;
      }
      let jid = makeJid(ctx);
      try {
        return await s.read('prepJid', async (conn) => {
          for (let i = 0; i < JID_TRIES; i++, jid = nextJid(jid))
            if (await o.reserveJid(conn, jid, nocache, s)) return jid;
          throw new SALT_ERR_RETURNER_FAILED(name, 'prepJid', `no free jid in ${JID_TRIES} microseconds`);
        });
      } catch (err) {
        // Jobs still run while the store is down: the jid is reserved once it is back.
        if (!isDown((err as Error).cause ?? err)) throw err;
        s.buffer.push({ kind: 'jid', jid, nocache });
        ctx.log.error({ jid, err: (err as Error).message }, `${name}: jid not reserved in the store yet`);
        return jid;
      }
    },

    async saveLoad(jid, load, minions, ctx) {
      // Not thrown: a job must still be published while the store is down (the load is buffered).
      await store(ctx)
        .write('saveLoad', { kind: 'load', jid, load, minions: [...minions] })
        .catch((err: unknown) => {
          if ((err as Error).cause === undefined || !isDown((err as Error).cause)) throw err;
          ctx.log.error({ jid, err: (err as Error).message }, `${name}: load buffered`);
        });
    },

    async saveMinions(jid, minions, ctx) {
      await store(ctx).write('saveMinions', { kind: 'minions', jid, minions: [...minions] });
    },

    async saveEndState(jid, id, state, ctx) {
      await store(ctx).write('saveEndState', { kind: 'end', jid, id, state });
    },

    async eventReturn(events, ctx) {
      if (events.length === 0) return;
      const masterId = typeof ctx.opts.id === 'string' ? ctx.opts.id : 'master';
      await store(ctx).write('eventReturn', { kind: 'events', events: [...events], masterId });
    },
  };
}
