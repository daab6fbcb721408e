/**
 * Salt's `State.verify_high`: the structural errors of high data, in Salt's words (a state
 * that is not a list, a short declaration with a trailing colon, no function or too many,
 * a function name with a space, `names` not a list, requisites not a list of one-key dicts,
 * a dotted requisite type, an unhashable requisite, a direct recursive requisite).
 */

import type { HighData } from '../types.js';
import { type Dict, firstKey, isDict, pyOrderedStr as pyStr } from './py.js';

/** Python's `hash()` succeeds: not a dict or a list. */
function hashable(v: unknown): boolean {
  return !Array.isArray(v) && !isDict(v);
}

/** A dict key as Python tells keys apart (`'1'` is not `1`). */
function keyOf(v: unknown): string {
  return typeof v === 'string' ? v : `\0${typeof v}:${String(v)}`;
}

/** The requisite lists of one argument, checked; records them in `reqs` for the recursion check. */
function checkRequisites(
  name: string,
  state: string,
  sls: unknown,
  kind: string,
  list: unknown,
  reqs: Map<string, Map<string, string>>,
  errors: string[],
): void {
  if (!Array.isArray(list)) {
    errors.push(
      `The ${kind} statement in state '${name}' in SLS '${pyStr(sls)}' needs to be formed as a list`,
    );
    return;
  }
  const mine = new Map<string, string>([['state', state]]);
  reqs.set(name, mine);
  for (const raw of list) {
    const req = typeof raw === 'string' ? { id: raw } : raw;
    if (!isDict(req)) {
      errors.push(
        `Requisite declaration ${pyStr(req)} in SLS ${pyStr(sls)} is not formed as a single key dictionary`,
      );
      continue;
    }
    const reqKey = firstKey(req);
    if (reqKey === undefined) continue;
    const reqVal = req[reqKey];
    if (reqKey.includes('.')) {
      errors.push(
        `Invalid requisite type '${reqKey}' in state '${name}', in SLS '${pyStr(sls)}'. Requisite types must not contain dots, did you mean '${reqKey.slice(0, reqKey.indexOf('.'))}'?`,
      );
    }
    if (!hashable(reqVal)) {
      errors.push(`Illegal requisite "${pyStr(reqVal)}", please check your syntax.\n`);
      continue;
    }
    const val = keyOf(reqVal);
    mine.set(val, reqKey);
    const other = reqs.get(val);
    if (other && other.get(name) === state && other.get('state') === mine.get(val)) {
      errors.push(`A recursive requisite was found, SLS "${pyStr(sls)}" ID "${name}" ID "${pyStr(reqVal)}"`);
    }
  }
}

/** One state declaration's errors (`name: {state: run}`). */
function verifyDeclaration(
  name: string,
  state: string,
  run: unknown,
  sls: unknown,
  reqs: Map<string, Map<string, string>>,
  errors: string[],
): void {
  if (run === null || run === undefined) {
    errors.push(
      `ID '${name}' in SLS '${pyStr(sls)}' contains a short declaration (${state}) with a trailing colon. When not passing any arguments to a state, the colon must be omitted.`,
    );
    return;
  }
  if (!Array.isArray(run)) {
    errors.push(`State '${name}' in SLS '${pyStr(sls)}' is not formed as a list`);
    return;
  }
  let fun = state.includes('.') ? 1 : 0;
  for (const arg of run) {
    if (typeof arg === 'string') {
      fun += 1;
      if (arg.trim().includes(' ')) {
        errors.push(
          `The function "${arg}" in state "${name}" in SLS "${pyStr(sls)}" has whitespace, a function with whitespace is not supported, perhaps this is an argument that is missing a ":"`,
        );
      }
    } else if (isDict(arg)) {
      const first = firstKey(arg);
      if (first === 'names' && !Array.isArray(arg.names)) {
        errors.push(
          `The 'names' argument in state '${name}' in SLS '${pyStr(sls)}' needs to be formed as a list`,
        );
      }
      if (first === 'require' || first === 'watch' || first === 'prereq' || first === 'onchanges') {
        checkRequisites(name, state, sls, first, arg[first], reqs, errors);
        // Salt checks for one key only in requisite arguments
        if (Object.keys(arg).length !== 1) {
          errors.push(`Multiple dictionaries defined in argument of state '${name}' in SLS '${pyStr(sls)}'`);
        }
      }
    }
  }
  if (fun === 0) {
    if (state === 'require' || state === 'watch') return;
    errors.push(`No function declared in state '${name}' in SLS '${pyStr(sls)}'`);
  } else if (fun > 1) {
    const funs = state.includes('.') ? [state.slice(state.indexOf('.') + 1)] : [];
    for (const arg of run) if (typeof arg === 'string') funs.push(arg);
    errors.push(
      `Too many functions declared in state '${name}' in SLS '${pyStr(sls)}'. Please choose one of the following: ${funs.join(', ')}`,
    );
  }
}

/** `verify_high`: every structural error of `high`, in definition order. */
export function verifyHigh(high: HighData): string[] {
  const errors: string[] = [];
  if (!isDict(high)) return ['High data is not a dictionary and is invalid'];
  const reqs = new Map<string, Map<string, string>>();
  for (const [name, body] of Object.entries(high as Dict)) {
    if (name.startsWith('__')) continue;
    if (!isDict(body)) {
      errors.push(`The type ${name} in ${pyStr(body)} is not formatted as a dictionary`);
      continue;
    }
    for (const [state, run] of Object.entries(body)) {
      if (state.startsWith('__')) continue;
      verifyDeclaration(name, state, run, body.__sls__, reqs, errors);
    }
  }
  return errors;
}
