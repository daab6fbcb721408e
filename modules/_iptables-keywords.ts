/**
 * The low-chunk keys that belong to Salt's state system, not to a rule (Salt's
 * `STATE_INTERNAL_KEYWORDS`): `iptables.build_rule` and the iptables states drop them, as Salt's
 * do, so an aggregated chunk's `fun`, `order` or `require` never becomes an iptables option.
 */
export const STATE_INTERNAL_KEYWORDS: ReadonlySet<string> = new Set(
  `__env__ __id__ __orchestration_jid__ __prereq__ __prerequired__ __pub_arg __pub_fun __pub_jid
__pub_pid __pub_ret __pub_tgt __pub_tgt_type __pub_user __sls__ __umask__ check_cmd
cmd_opts_exclude creates failhard fire_event fun listen listen_in onchanges onchanges_any
onchanges_in onfail onfail_all onfail_any onfail_in onfail_stop onlyif order parallel prereq
prereq_in prerequired reload_grains reload_modules reload_pillar require require_any require_in
retry runas runas_password saltenv state umask unless use use_in watch watch_any watch_in`.split(/\s+/),
);
