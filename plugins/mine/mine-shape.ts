/**
 * The shape of a mine read, the same on the master (`_mine_get`) and on a masterless minion:
 * one function asked for gives `{minion: data}`; a list, or a comma-separated string of several,
 * gives `{function: {minion: data}}`.
 */

export interface RequestedFunctions {
  functions: string[];
  byFunction: boolean;
}

/** The functions asked for, or undefined for a `fun` that is neither a string nor a list of strings. */
export function requestedFunctions(fun: unknown): RequestedFunctions | undefined {
  if (typeof fun === 'string') {
    const functions = [...new Set(fun.split(','))];
    return { functions, byFunction: functions.length > 1 };
  }
  if (Array.isArray(fun) && fun.every((f) => typeof f === 'string'))
    return { functions: fun, byFunction: true };
  return undefined;
}

/** Puts one minion's data for one function into the answer. */
export function addResult(
  ret: Record<string, unknown>,
  asked: RequestedFunctions,
  fun: string,
  minion: string,
  value: unknown,
): void {
  if (!asked.byFunction) {
    ret[minion] = value;
    return;
  }
  let byMinion = ret[fun] as Record<string, unknown> | undefined;
  if (byMinion === undefined) {
    byMinion = {};
    ret[fun] = byMinion;
  }
  byMinion[minion] = value;
}
