/**
 * The `saltutil.sync_*` functions (Salt's `saltutil._sync` and each `sync_<kind>`): copy the
 * files of `salt://_<form>` into `<extension_modules>/<form>` (modules/_extmods-sync.ts) and
 * return Salt's `<form>.<name>` list. Kinds tsalt's loaders load from there take `.js`/`.mjs`
 * files; the kinds it does not load (`utils`, `renderers`, `clouds`, ...) also take Salt's own
 * files, so a Salt file tree syncs as it does under Salt.
 */
import { z } from 'zod';
import { defineFunction, type ExecContext, type MasterLink, SALT_ERR_EXEC_SYNC } from '../kernel/index.js';
import { SALT_OR_JS_FILE, syncForm } from './_extmods-sync.js';
import { fileChannel } from './_file-channel.js';

/** Names from a comma-separated string or a list. */
const names = (v: string | readonly unknown[]): string[] =>
  (typeof v === 'string' ? v.split(',') : v.map(String)).filter(Boolean);

/**
 * Salt's `extmod_whitelist`/`extmod_blacklist` (and `saltenv`): a comma-separated string or list
 * of names, or a map of kind to names (`{modules: [a, b]}`, as in the minion config).
 */
const nameList = z
  .union([
    z.string(),
    z.array(z.unknown()),
    z.record(z.string(), z.union([z.string(), z.array(z.unknown())])),
  ])
  .nullable()
  .default(null)
  .transform((v): string[] | Record<string, string[]> | null => {
    if (v === null) return null;
    if (typeof v === 'string' || Array.isArray(v)) return names(v);
    return Object.fromEntries(Object.entries(v).map(([k, list]) => [k, names(list)]));
  });

/**
 * The names a list allows or refuses for `form`, null for no filter: a map (the argument's, else
 * the minion config's) filters only the kinds it names.
 */
function namesFor(
  given: string[] | Record<string, string[]> | null,
  configured: unknown,
  form: string,
): string[] | null {
  const list = given ?? (typeof configured === 'object' && configured !== null ? configured : null);
  if (list === null || Array.isArray(list)) return list;
  const forForm = (list as Record<string, unknown>)[form];
  if (forForm === undefined || forForm === null) return null;
  return typeof forForm === 'string' || Array.isArray(forForm) ? names(forForm) : null;
}

export const syncArgs = z.object({
  saltenv: nameList,
  refresh: z.boolean().default(true),
  extmod_whitelist: nameList,
  extmod_blacklist: nameList,
});

type SyncArgs = z.output<typeof syncArgs>;

export const RESTART_NOTE = 'multiprocessing is off: restart the minion to load changed modules';

/** Salt's `refresh_modules` for minion `id`; without a master link (salt-call) the next call loads anew anyway. */
export function refreshModules(ctx: ExecContext): true | string {
  const link = ctx.master;
  if (!link) return true;
  link.recycle();
  return link.inProcess ? RESTART_NOTE : true;
}

/** The kinds tsalt's loaders read from `<extension_modules>/<form>`: only `.js`/`.mjs` files are synced. */
const LOADED_FORMS = ['modules', 'states', 'sdb', 'grains', 'returners', 'matchers'] as const;

/** Every folder Salt syncs (`proxy` is `sync_proxymodules`'s, `output` `sync_output`'s). */
export type SyncForm =
  | (typeof LOADED_FORMS)[number]
  | 'beacons'
  | 'clouds'
  | 'engines'
  | 'executors'
  | 'log_handlers'
  | 'output'
  | 'pillar'
  | 'proxy'
  | 'renderers'
  | 'serializers'
  | 'thorium'
  | 'utils';

/**
 * Salt's `_sync(form, ...)`: the `<form>.<name>` added or changed, in sync order, from the
 * master's file server, or from the minion's own `file_roots` with `file_client: local`
 * (`salt-call --local`), as Salt's file client does.
 */
export async function syncExtForm(
  ctx: ExecContext,
  args: Pick<SyncArgs, 'saltenv' | 'extmod_whitelist' | 'extmod_blacklist'>,
  form: SyncForm,
): Promise<{ changed: string[]; touched: boolean }> {
  const allow = namesFor(args.extmod_whitelist, ctx.opts.extmod_whitelist, form);
  const deny = namesFor(args.extmod_blacklist, ctx.opts.extmod_blacklist, form) ?? [];
  const loaded = (LOADED_FORMS as readonly string[]).includes(form);
  return syncForm({
    extensionModules: String(ctx.opts.extension_modules ?? ''),
    form,
    saltenvs: saltenvs(args.saltenv),
    hashType: String(ctx.opts.hash_type ?? 'sha256'),
    request: fileChannel(ctx),
    accept: (name) => (allow === null || allow.includes(name)) && !deny.includes(name),
    ...(!loaded && { files: SALT_OR_JS_FILE }),
  });
}

/** The environments to sync from: the given ones, else `base`. */
function saltenvs(given: string[] | Record<string, string[]> | null): string[] {
  if (given === null) return ['base'];
  return Array.isArray(given) ? given : Object.keys(given);
}

/** The return of a sync: Salt's list, plus the restart note when in-process jobs cannot reload. */
export function withNote(changed: string[], touched: boolean, link: MasterLink | undefined): string[] {
  return link?.inProcess && touched ? [...changed, RESTART_NOTE] : changed;
}

/** Salt's `sync_pillar` refusal on a minion with a master. */
export function requireMasterless(ctx: ExecContext): void {
  if (ctx.opts.file_client !== 'local')
    throw new SALT_ERR_EXEC_SYNC('Pillar modules can only be synced to masterless minions');
}

interface SyncFunctionOptions {
  /** Salt's default for `refresh` (False for engines, thorium, proxymodules, matchers). */
  refresh?: boolean;
  /** Takes `clean_pillar_cache` (sync_grains, sync_pillar). */
  cleanPillarCache?: true;
  /** What `refresh=True` does after the sync; default: Salt's `refresh_modules`. */
  after?: (ctx: ExecContext) => unknown;
  /** Checked before anything is synced. */
  before?: (ctx: ExecContext) => void;
}

/** A `sync_<kind>` function syncing folder `_<form>`, with Salt's signature for that kind. */
export function syncFunction(form: SyncForm, doc: string, o: SyncFunctionOptions = {}) {
  let args = o.cleanPillarCache
    ? syncArgs.extend({ clean_pillar_cache: z.boolean().default(false) })
    : syncArgs;
  if (o.refresh === false) args = args.extend({ refresh: z.boolean().default(false) });
  return defineFunction({
    args,
    doc,
    run: async (ctx, a) => {
      o.before?.(ctx);
      const { changed, touched } = await syncExtForm(ctx, a, form);
      if (a.refresh) await (o.after ?? refreshModules)(ctx);
      return withNote(changed, touched, ctx.master);
    },
  });
}

/** Salt's `sync_all` keys, in Salt's order, with the folder each syncs. */
const SYNC_ALL: readonly (readonly [string, SyncForm])[] = [
  ['clouds', 'clouds'],
  ['beacons', 'beacons'],
  ['modules', 'modules'],
  ['states', 'states'],
  ['sdb', 'sdb'],
  ['grains', 'grains'],
  ['renderers', 'renderers'],
  ['returners', 'returners'],
  ['output', 'output'],
  ['utils', 'utils'],
  ['log_handlers', 'log_handlers'],
  ['executors', 'executors'],
  ['proxymodules', 'proxy'],
  ['engines', 'engines'],
  ['thorium', 'thorium'],
  ['serializers', 'serializers'],
  ['matchers', 'matchers'],
];

/** Salt's `sync_all`: every kind (and pillar modules on a masterless minion), then one refresh. */
export async function syncAll(
  ctx: ExecContext,
  a: SyncArgs,
  refreshPillar: (ctx: ExecContext) => Promise<unknown>,
): Promise<Record<string, string[]>> {
  const forms: (readonly [string, SyncForm])[] = [...SYNC_ALL];
  if (ctx.opts.file_client === 'local') forms.push(['pillar', 'pillar']);
  const ret: Record<string, string[]> = {};
  let sdbTouched = false;
  const done: [string, { changed: string[]; touched: boolean }][] = [];
  for (const [key, form] of forms) {
    const r = await syncExtForm(ctx, a, form);
    if (form === 'sdb') sdbTouched = r.touched;
    done.push([key, r]);
  }
  // Salt touches its module_refresh file when sdb changed; refresh=True refreshes the pillar,
  // which reloads the modules
  if (a.refresh) await refreshPillar(ctx);
  else if (sdbTouched) ctx.master?.recycle();
  for (const [key, r] of done) ret[key] = withNote(r.changed, r.touched, ctx.master);
  return ret;
}
