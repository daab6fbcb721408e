/**
 * Salt's `saltutil` runner (`salt/runners/saltutil.py`): copy `salt://_<form>/` from the
 * master's own file_roots into the master's `extension_modules`, where the runner, wheel and
 * returner loaders look first. Returns Salt's list of synced names (`runners.foo`). Each
 * runner runs in a new process, so a synced runner is callable by the next `salt-run`.
 */
import { z } from 'zod';
import {
  defineRunner,
  defineRunnerFunction,
  type RunnerContext,
  SALT_ERR_RUNNER,
} from '../../../kernel/index.js';
import { syncForm } from '../../../modules/_extmods-sync.js';
import { fileServerRequest, localFileServer } from '../../file-server/index.js';

/** The keys of Salt 3006.18's runner `sync_all` return, in its order. */
const SYNC_ALL_KEYS = [
  'clouds',
  'modules',
  'states',
  'grains',
  'renderers',
  'returners',
  'output',
  'proxymodules',
  'runners',
  'wheel',
  'engines',
  'thorium',
  'queues',
  'pillar',
  'utils',
  'sdb',
  'cache',
  'fileserver',
  'tops',
  'tokens',
  'serializers',
  'executors',
  'roster',
] as const;

/**
 * The forms `sync_all` syncs on the master: those tsalt has a plugin kind for (Salt's other
 * forms are in the return, empty).
 */
export const MASTER_FORMS: ReadonlySet<string> = new Set([
  'modules',
  'states',
  'grains',
  'returners',
  'output',
  'runners',
  'wheel',
  'engines',
  'sdb',
]);

const syncArgs = z.object({
  saltenv: z.union([z.string(), z.array(z.string())]).default('base'),
  extmod_whitelist: z.union([z.string(), z.array(z.string())]).optional(),
  extmod_blacklist: z.union([z.string(), z.array(z.string())]).optional(),
});
type SyncArgs = z.output<typeof syncArgs>;

function list(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return (typeof value === 'string' ? value.split(',') : [...value]).map((s) => s.trim()).filter(Boolean);
}

/** Serves the master's own file_roots to the sync code, as the request server would. */
function localRequest(opts: Readonly<Record<string, unknown>>) {
  return fileServerRequest(localFileServer(opts));
}

/** Syncs one form; Salt's list of `<form>.<name>` added or changed. */
export async function syncMasterForm(
  opts: Readonly<Record<string, unknown>>,
  form: string,
  args: SyncArgs,
): Promise<string[]> {
  const extmods = opts.extension_modules;
  if (typeof extmods !== 'string' || !extmods) throw new SALT_ERR_RUNNER('extension_modules is not set');
  const white = list(args.extmod_whitelist);
  const black = list(args.extmod_blacklist) ?? [];
  const result = await syncForm({
    extensionModules: extmods,
    form,
    saltenvs: list(args.saltenv) ?? ['base'],
    hashType: typeof opts.hash_type === 'string' ? opts.hash_type : 'sha256',
    request: localRequest(opts),
    accept: (name) => (!white || white.includes(name)) && !black.includes(name),
  });
  return result.changed;
}

function syncer(form: string, what: string) {
  return defineRunnerFunction({
    args: syncArgs,
    doc: `Sync ${what} from salt://_${form}/ to the master's extension_modules/${form}.`,
    run: (ctx: RunnerContext, args) => syncMasterForm(ctx.opts, form, args),
  });
}

export default defineRunner({
  name: 'saltutil',
  doc: "Sync custom modules from the master's file_roots to the master.",
  functions: {
    sync_modules: syncer('modules', 'execution modules'),
    sync_returners: syncer('returners', 'returners'),
    sync_runners: syncer('runners', 'runners'),
    sync_wheel: syncer('wheel', 'wheel modules'),
    sync_sdb: syncer('sdb', 'sdb drivers'),
    sync_states: syncer('states', 'state modules'),
    sync_grains: syncer('grains', 'grain modules'),
    sync_output: syncer('output', 'outputters'),
    sync_engines: syncer('engines', 'engines'),
    sync_all: defineRunnerFunction({
      args: syncArgs,
      doc: "Sync every form tsalt has a plugin kind for (modules, states, grains, returners, output, runners, wheel, engines, sdb) and return what each synced, with Salt's other forms empty.",
      run: async (ctx, args) => {
        const out: Record<string, string[]> = {};
        for (const form of SYNC_ALL_KEYS)
          out[form] = MASTER_FORMS.has(form) ? await syncMasterForm(ctx.opts, form, args) : [];
        return out;
      },
    }),
  },
});
