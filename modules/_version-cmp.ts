/**
 * The operators of Salt's `salt.utils.versions.compare`, which both `match_version` (apt
 * installs of `>=1.2`) and the pkg states' version conditions go through: which results of a
 * version comparison (-1, 0, 1) each accepts. `!=` is anything but equal, as Salt's.
 */
const CMP_MAP: Readonly<Record<string, readonly number[]>> = {
  '<': [-1],
  '<=': [-1, 0],
  '==': [0],
  '>=': [0, 1],
  '>': [1],
  '!=': [-1, 1],
};

/** Whether Salt's `compare` knows `oper` (else it logs an error and answers False). */
export function isCmpOperator(oper: string): boolean {
  return Object.hasOwn(CMP_MAP, oper);
}

/** Whether comparison result `result` (any sign, as Salt clamps it) satisfies `oper`; false for an unknown operator. */
export function cmpSatisfies(oper: string, result: number): boolean {
  return isCmpOperator(oper) && (CMP_MAP[oper] ?? []).includes(Math.sign(result));
}
