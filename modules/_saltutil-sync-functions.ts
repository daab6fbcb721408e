/**
 * The `saltutil.sync_<kind>` functions and `sync_all`, with Salt's signatures and the refresh
 * each does after its sync (Salt's `refresh_modules`, `refresh_pillar` or `refresh_beacons`).
 */
import { z } from 'zod';
import { defineFunction } from '../kernel/index.js';
import { refreshBeacons, refreshGrainsNow, refreshPillarNow } from './_saltutil-refresh.js';
import {
  requireMasterless,
  type SyncForm,
  syncAll,
  syncArgs,
  syncExtForm,
  syncFunction,
  withNote,
} from './_saltutil-sync.js';

/** Salt's doc shape for a kind tsalt does not load: the files are synced for Salt's sake. */
function unloadedDoc(fn: string, form: SyncForm, what: string): string {
  return `Sync ${what} from salt://_${form} into the minion's extension_modules/${form}.\n\nReturns the files added or changed, as \`${form}.<name>\`; those the master no longer has are removed. tsalt does not load this kind: its files (.js/.mjs and Salt's .py/.pyx/.so/.zip) are kept for Salt's sake.\n\nCLI Example: salt '*' saltutil.${fn}`;
}

const syncOutput = syncFunction('output', unloadedDoc('sync_output', 'output', 'outputters'));

export const syncFunctions = {
  sync_modules: syncFunction(
    'modules',
    "Sync execution modules from salt://_modules on the master into the minion's extension_modules.\n\nReturns the modules added or changed, as `modules.<name>`; modules the master no longer has are removed. With refresh (the default) the next jobs load the new modules.\n\nCLI Example: salt '*' saltutil.sync_modules saltenv=base,dev",
  ),
  sync_states: syncFunction(
    'states',
    "Sync state modules from salt://_states on the master into the minion's extension_modules/states.\n\nReturns the state modules added or changed, as `states.<name>`; those the master no longer has are removed. New job processes load them.\n\nCLI Example: salt '*' saltutil.sync_states",
  ),
  sync_sdb: defineFunction({
    args: syncArgs.omit({ refresh: true }),
    doc: "Sync sdb drivers from salt://_sdb on the master into the minion's extension_modules/sdb.\n\nReturns the drivers added or changed, as `sdb.<name>`; those the master no longer has are removed. It takes no refresh argument (Salt's has none): when anything changed, new job processes load the drivers anew.\n\nCLI Example: salt '*' saltutil.sync_sdb saltenv=base,dev",
    run: async (ctx, args) => {
      const { changed, touched } = await syncExtForm(ctx, args, 'sdb');
      // Salt touches its module_refresh file whenever the folder changed
      if (touched) ctx.master?.recycle();
      return withNote(changed, touched, ctx.master);
    },
  }),
  sync_grains: syncFunction(
    'grains',
    "Sync custom grain modules from salt://_grains on the master into the minion's extension_modules/grains.\n\nReturns the grain modules added or changed, as `grains.<name>`; those the master no longer has are removed. With refresh (the default) the minion recomputes its grains, reports them to the master (targeting sees them) and fetches its pillar again.\n\nCLI Example: salt '*' saltutil.sync_grains",
    { cleanPillarCache: true, after: (ctx) => refreshGrainsNow(ctx) },
  ),
  sync_returners: syncFunction(
    'returners',
    "Sync returners from salt://_returners on the master into the minion's extension_modules/returners.\n\nReturns the returners added or changed, as `returners.<name>`; those the master no longer has are removed. New job processes load them (`salt --return <name>`).\n\nCLI Example: salt '*' saltutil.sync_returners",
  ),
  sync_matchers: syncFunction(
    'matchers',
    "Sync matchers from salt://_matchers on the master into the minion's extension_modules/matchers.\n\nReturns the matchers added or changed, as `matchers.<name>`; those the master no longer has are removed. A matcher named after a target type (glob, grain, compound, ...) takes its place on this minion; with refresh=True the minion loads them at once.\n\nCLI Example: salt '*' saltutil.sync_matchers",
    { refresh: false },
  ),
  sync_beacons: syncFunction(
    'beacons',
    "Sync beacons from salt://_beacons into the minion's extension_modules/beacons, where the minion's beacons are looked for.\n\nReturns the beacons added or changed, as `beacons.<name>`; those the master no longer has are removed. With refresh (the default) `beacons_refresh` is fired on the minion's bus.\n\nCLI Example: salt '*' saltutil.sync_beacons",
    { after: refreshBeacons },
  ),
  sync_clouds: syncFunction('clouds', unloadedDoc('sync_clouds', 'clouds', 'salt-cloud modules')),
  sync_engines: syncFunction(
    'engines',
    "Sync engines from salt://_engines into the minion's extension_modules/engines, where the minion's engines are looked for (they start with the minion).\n\nReturns the engines added or changed, as `engines.<name>`; those the master no longer has are removed.\n\nCLI Example: salt '*' saltutil.sync_engines",
    { refresh: false },
  ),
  sync_executors: syncFunction('executors', unloadedDoc('sync_executors', 'executors', 'executors')),
  sync_log_handlers: syncFunction(
    'log_handlers',
    unloadedDoc('sync_log_handlers', 'log_handlers', 'log handlers'),
  ),
  sync_output: syncOutput,
  sync_outputters: syncOutput,
  sync_pillar: syncFunction(
    'pillar',
    "Sync pillar modules from salt://_pillar into the minion's extension_modules/pillar; masterless minions (file_client: local) only.\n\nReturns the files added or changed, as `pillar.<name>`; tsalt does not load pillar modules from there. With refresh (the default) the pillar is refreshed.\n\nCLI Example: salt '*' saltutil.sync_pillar",
    { cleanPillarCache: true, before: requireMasterless, after: (ctx) => refreshPillarNow(ctx) },
  ),
  sync_proxymodules: syncFunction('proxy', unloadedDoc('sync_proxymodules', 'proxy', 'proxy modules'), {
    refresh: false,
  }),
  sync_renderers: syncFunction('renderers', unloadedDoc('sync_renderers', 'renderers', 'renderers')),
  sync_serializers: syncFunction(
    'serializers',
    unloadedDoc('sync_serializers', 'serializers', 'serializers'),
  ),
  sync_thorium: syncFunction('thorium', unloadedDoc('sync_thorium', 'thorium', 'thorium modules'), {
    refresh: false,
  }),
  sync_utils: syncFunction('utils', unloadedDoc('sync_utils', 'utils', 'utility modules')),
  sync_all: defineFunction({
    args: syncArgs.extend({ clean_pillar_cache: z.boolean().default(false) }),
    doc: "Sync every kind of extension from the master (each sync_<kind>; pillar modules too on a masterless minion), then, with refresh, recompute the grains and refresh the pillar.\n\nReturns `{<kind>: [<kind>.<name>, ...]}` in Salt's order.\n\nCLI Example: salt '*' saltutil.sync_all",
    run: (ctx, args) => syncAll(ctx, args, (c) => refreshGrainsNow(c)),
  }),
};
