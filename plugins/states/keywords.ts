/**
 * The state system's own keywords, for the compiler (extend merges requisite lists) and the
 * runtime. The low-chunk keys that belong to the state system, not to the state function (Salt's
 * `STATE_REQUISITE_KEYWORDS`, `STATE_REQUISITE_IN_KEYWORDS`, `STATE_RUNTIME_KEYWORDS`,
 * `STATE_INTERNAL_KEYWORDS` in `salt/state.py`): a function that takes `**kwargs` never sees
 * them, as Salt's `format_call` leaves them out.
 */

/** The requisites the runtime resolves (Salt's `STATE_REQUISITE_KEYWORDS`). */
export const REQUISITE_KEYWORDS: ReadonlySet<string> = new Set([
  'onchanges',
  'onchanges_any',
  'onfail',
  'onfail_any',
  'onfail_all',
  'onfail_stop',
  'prereq',
  'prerequired',
  'watch',
  'watch_any',
  'require',
  'require_any',
  'listen',
]);

const REQUISITE_IN_KEYWORDS = [
  'onchanges_in',
  'onfail_in',
  'prereq_in',
  'watch_in',
  'require_in',
  'listen_in',
];

const RUNTIME_KEYWORDS = [
  'fun',
  'state',
  'check_cmd',
  'cmd_opts_exclude',
  'failhard',
  'onlyif',
  'unless',
  'creates',
  'retry',
  'order',
  'parallel',
  'prereq',
  'prereq_in',
  'prerequired',
  'reload_modules',
  'reload_grains',
  'reload_pillar',
  'runas',
  'runas_password',
  'fire_event',
  'saltenv',
  'umask',
  'use',
  'use_in',
  '__env__',
  '__sls__',
  '__id__',
  '__orchestration_jid__',
  '__pub_user',
  '__pub_arg',
  '__pub_jid',
  '__pub_fun',
  '__pub_tgt',
  '__pub_ret',
  '__pub_pid',
  '__pub_tgt_type',
  '__prereq__',
  '__prerequired__',
  '__umask__',
];

/** Every key a state function is not given (Salt's `STATE_INTERNAL_KEYWORDS`). */
export const INTERNAL_KEYWORDS: ReadonlySet<string> = new Set([
  ...REQUISITE_KEYWORDS,
  ...REQUISITE_IN_KEYWORDS,
  ...RUNTIME_KEYWORDS,
]);

/** The keywords of a low chunk a state function receives: all but {@link INTERNAL_KEYWORDS}. */
export function functionKwargs(low: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(low).filter(([k]) => !INTERNAL_KEYWORDS.has(k)));
}
