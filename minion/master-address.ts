/**
 * The master a minion talks to first. A list is walked in order with `master_type: failover`
 * (minion/failover.ts); otherwise (hot multi-master is not supported yet) the first one is used.
 */
export function primaryMaster(master: string | readonly string[]): string {
  return typeof master === 'string' ? master : (master[0] ?? 'salt');
}
