/**
 * The returners as Salt's loader shows them (`<returner>.<function>`, `salt.loader.returners`):
 * what `sys.list_returner_functions`, `sys.returner_argspec`, `sys.returner_doc` and the `ret`
 * module read. A tsalt returner's methods carry Salt's function names; a returner Salt also
 * has (`local_cache`, `postgres`, `redis`) shows only the functions Salt's has, with Salt
 * 3006.18's signatures, so a call Salt's refuses is refused here too.
 */
import { BUILTIN_RETURNERS } from '../plugins/builtin-dirs.js';
import type { ArgSpec } from './_sys-report.js';

/** What each returner function does (the docs `sys.returner_doc` shows). */
export const RETURNER_FUNCTION_DOCS: Readonly<Record<string, string>> = {
  returner: "Stores one minion's return of a job.",
  prep_jid: 'Makes a new job id and reserves it (or reserves the one passed).',
  save_load: "Stores a job's publish load and its target minions.",
  save_minions: "Adds minions to a job's target list.",
  get_load: 'The publish load of a job.',
  get_jid: 'The returns of a job, by minion.',
  get_fun: 'For each minion, the job id of the last job that ran the function.',
  get_jids: 'Every stored job, by job id.',
  get_minions: 'Every minion that stored a return.',
  clean_old_jobs: 'Removes the jobs older than keep_jobs.',
  event_return: 'Stores a batch of events from the event bus.',
  get_endtime: 'The stored end time of a job, or False when none was stored.',
  update_endtime: "Stores the end time of a job (plain text in the job's directory).",
  get_jids_filter:
    'The count newest jobs, with their job ids; saltutil.find_job ones left out unless filter_find_job is False.',
  save_reg: 'Saves the thorium register (fails in Salt 3006, as here).',
  load_reg: 'Loads the thorium register (fails in Salt 3006, as here).',
};

/** A returner definition's method names and the Salt function each one is. */
export const SALT_FUNCTION_OF = {
  returner: 'returner',
  prepJid: 'prep_jid',
  saveLoad: 'save_load',
  saveMinions: 'save_minions',
  getLoad: 'get_load',
  getJid: 'get_jid',
  getFun: 'get_fun',
  getJids: 'get_jids',
  getMinions: 'get_minions',
  cleanOldJobs: 'clean_old_jobs',
  eventReturn: 'event_return',
  getEndtime: 'get_endtime',
  updateEndtime: 'update_endtime',
  getJidsFilter: 'get_jids_filter',
  saveReg: 'save_reg',
  loadReg: 'load_reg',
} as const;

export type ReturnerMethod = keyof typeof SALT_FUNCTION_OF;

const spec = (args: string[], defaults: unknown[] = []): ArgSpec => ({
  args: args.length > 0 ? args : null,
  defaults: defaults.length > 0 ? defaults : null,
  varargs: null,
  kwargs: null,
});

/** The usual signatures (Salt's postgres and redis returners'). */
const USUAL: Readonly<Record<string, ArgSpec>> = {
  returner: spec(['ret']),
  prep_jid: spec(['nocache', 'passed_jid'], [false, null]),
  save_load: spec(['jid', 'load', 'minions'], [null]),
  save_minions: spec(['jid', 'minions', 'syndic_id'], [null]),
  get_load: spec(['jid']),
  get_jid: spec(['jid']),
  get_fun: spec(['fun']),
  get_jids: spec([]),
  get_minions: spec([]),
  clean_old_jobs: spec([]),
  event_return: spec(['events']),
};

/** The functions of Salt 3006.18's returners of the same name, where they differ from {@link USUAL}. */
const SALT_RETURNERS: Readonly<Record<string, Readonly<Record<string, ArgSpec>>>> = {
  local_cache: {
    ...USUAL,
    returner: spec(['load']),
    prep_jid: spec(['nocache', 'passed_jid', 'recurse_count'], [false, null, 0]),
    save_load: spec(['jid', 'clear_load', 'minions', 'recurse_count'], [null, 0]),
    get_endtime: spec(['jid']),
    update_endtime: spec(['jid', 'time']),
    get_jids_filter: spec(['count', 'filter_find_job'], [true]),
    save_reg: spec(['data']),
    load_reg: spec([]),
  },
  local: { ...USUAL, event_return: spec(['event']) },
  postgres: USUAL,
  redis: USUAL,
};

/** Functions Salt's returner of that name lacks (its local_cache has no get_fun, get_minions, event_return). */
const SALT_LACKS: Readonly<Record<string, readonly string[]>> = {
  local_cache: ['get_fun', 'get_minions', 'event_return'],
  postgres: ['clean_old_jobs'],
  redis: ['event_return'],
};

/** One returner function: the method that serves it and its Salt signature. */
export interface ReturnerFunction {
  readonly method: ReturnerMethod;
  readonly argspec: ArgSpec;
}

/** The functions of the returner `name` whose definition has `methods`, by Salt name (sorted). */
export function returnerFunctions(name: string, methods: ReadonlySet<string>): Map<string, ReturnerFunction> {
  const signatures = SALT_RETURNERS[name] ?? USUAL;
  const lacks = SALT_LACKS[name] ?? [];
  const out = new Map<string, ReturnerFunction>();
  const entries = Object.entries(SALT_FUNCTION_OF) as [ReturnerMethod, string][];
  for (const [method, fun] of entries.sort(([, a], [, b]) => (a < b ? -1 : 1))) {
    if (!methods.has(method) || lacks.includes(fun)) continue;
    out.set(fun, { method, argspec: signatures[fun] ?? spec([]) });
  }
  return out;
}

/** The built-in returners' names. */
export const builtinReturnerNames = (): string[] => Object.keys(BUILTIN_RETURNERS);
