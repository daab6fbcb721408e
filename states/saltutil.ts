/**
 * Salt's `saltutil` state module (`salt/states/saltutil.py`): `saltutil.sync_all` and one
 * `saltutil.sync_<kind>` per extension kind, each running the execution function of the same name
 * and reporting what it synced as changes. A kind tsalt's `saltutil` module does not sync
 * (clouds, engines, ...; Salt's would) has nothing to sync here.
 */
import { pyTruthy } from '../kernel/util.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

const KINDS = [
  'beacons',
  'clouds',
  'engines',
  'grains',
  'executors',
  'log_handlers',
  'modules',
  'output',
  'outputters',
  'pillar',
  'proxymodules',
  'matchers',
  'renderers',
  'returners',
  'sdb',
  'states',
  'thorium',
  'utils',
  'serializers',
] as const;

const failed = (err: unknown): string => (err instanceof Error ? err.message : String(err));

async function syncSingle(
  ctx: StateContext,
  name: string,
  kind: string,
  kwargs: Record<string, unknown>,
): Promise<StateReturn> {
  const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
  if (ctx.test) return { ...ret, result: null, comment: `saltutil.sync_${kind} would have been run` };
  const fun = `saltutil.sync_${kind}`;
  try {
    const status = (await ctx.functions.get(fun)) ? await ctx.call(fun, [], kwargs) : [];
    if (pyTruthy(status)) {
      ret.changes[kind] = status;
      ret.comment = `Updated ${kind}.`;
    }
  } catch (err) {
    ctx.log.error({ fun }, `Failed to run ${fun}: ${failed(err)}`);
    return { ...ret, result: false, comment: `Failed to run sync_${kind}: ${failed(err)}` };
  }
  if (Object.keys(ret.changes).length === 0) ret.comment = 'No updates to sync';
  return ret;
}

const single = (kind: string) =>
  defineState({
    args: (z) => z.object({ name: z.string() }),
    varkw: true,
    doc: `Performs the same task as saltutil.sync_${kind} module.\n\nname: any name; the keywords go to saltutil.sync_${kind}.`,
    run: (ctx, a, extra) => syncSingle(ctx, a.name, kind, extra.kwargs),
  });

export default defineStateModule({
  name: 'saltutil',
  doc: 'Saltutil state: sync extension modules from the master (saltutil.sync_all, saltutil.sync_modules, ...).',
  functions: {
    sync_all: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Performs the same task as saltutil.sync_all module.\n\nname: any name; the keywords go to saltutil.sync_all.',
      async run(ctx, a, extra): Promise<StateReturn> {
        const ret: StateReturn = { name: a.name, changes: {}, result: true, comment: '' };
        if (ctx.test) return { ...ret, result: null, comment: 'saltutil.sync_all would have been run' };
        try {
          const status = (await ctx.call('saltutil.sync_all', [], extra.kwargs)) as Record<string, unknown>;
          for (const [key, value] of Object.entries(status ?? {})) {
            if (pyTruthy(value)) {
              ret.changes[key] = value;
              ret.comment = 'Sync performed';
            }
          }
        } catch (err) {
          ctx.log.error({ fun: 'saltutil.sync_all' }, `Failed to run saltutil.sync_all: ${failed(err)}`);
          return { ...ret, result: false, comment: `Failed to run sync_all: ${failed(err)}` };
        }
        if (Object.keys(ret.changes).length === 0) ret.comment = 'No updates to sync';
        return ret;
      },
    }),
    ...Object.fromEntries(KINDS.map((kind) => [`sync_${kind}`, single(kind)])),
  },
});
