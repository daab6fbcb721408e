/**
 * The master a minion talks to. A list of masters (Salt's multi-master) is not supported yet:
 * the first one is used.
 */
export function primaryMaster(master: string | readonly string[]): string {
  return typeof master === 'string' ? master : (master[0] ?? 'salt');
}
