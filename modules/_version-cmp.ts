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

/**
 * Dotted versions compared number by number, `-` counting as a dot and a non-number as 0 (the
 * LooseVersion-like compare Salt's pip module and virtualenv state apply to pip's version).
 */
export function dottedVersionCmp(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
