/**
 * Salt's `_get_pillar_errors` and what the `state` functions do with it
 * (`salt/modules/state.py`): a pillar that did not render (its `_errors`) stops a run before it
 * compiles. The running functions (`highstate`, `sls`, `top`, `sls_id`, so `apply` and `test`)
 * return Salt's list with retcode 5 (`EX_PILLAR_FAILURE`); the showing ones (`show_*`,
 * `sls_exists`, `id_exists`) raise "Pillar failed to render" with the errors as its info.
 * `force=True` skips the check.
 */
import { RetcodeResult, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { EX_STATE_COMPILER_ERROR, type StateCall, type StateKwargs } from './_state-run.js';

/** Salt's `EX_PILLAR_FAILURE`. */
export const EX_PILLAR_FAILURE = 5;

/** The run's pillar errors (the `_errors` of the pillar the call compiles with), unless `force`. */
export function pillarErrors(call: StateCall, kw: StateKwargs): string[] | undefined {
  if (kw.force !== undefined && kw.force !== null && pyTruthy(kw.force)) return undefined;
  const errors = call.pillar._errors;
  if (errors === undefined || errors === null || !pyTruthy(errors)) return undefined;
  return (Array.isArray(errors) ? errors : [errors]).map((e) => String(e));
}

const HEADER = 'Pillar failed to render with the following messages:';

/** A running function's answer to pillar errors: Salt's list, retcode 5; undefined without errors. */
export function pillarFailure(call: StateCall, kw: StateKwargs): RetcodeResult<string[]> | undefined {
  const errors = pillarErrors(call, kw);
  if (!errors) return undefined;
  return new RetcodeResult([HEADER, ...errors], EX_PILLAR_FAILURE);
}

/**
 * The highstate's second look (Salt's `HighState._check_pillar` in `call_highstate`): any
 * `_errors` key, even an empty list, stops it as a compile error (retcode 1). `state.top`
 * passes Salt no `force`, so its caller gives `undefined` there.
 */
export function highstatePillarFailure(call: StateCall, force: unknown): RetcodeResult<string[]> | undefined {
  if ((force !== undefined && force !== null && pyTruthy(force)) || !Object.hasOwn(call.pillar, '_errors'))
    return undefined;
  const errors = call.pillar._errors;
  const list = Array.isArray(errors) ? errors.map(String) : [...String(errors)];
  return new RetcodeResult([HEADER, ...list], EX_STATE_COMPILER_ERROR);
}

/** Salt's nested outputter for a list of strings, plain: `- ` and the next lines under it. */
function nestedList(items: readonly string[]): string {
  return items
    .flatMap((s) => s.split(/\r?\n/).map((line, i) => `${i === 0 ? '- ' : '  '}${line}`))
    .join('\n');
}

/**
 * A showing function's answer to pillar errors: Salt's `CommandExecutionError("Pillar failed
 * to render", info=errors)`, whose text carries the errors ("Additional info follows").
 */
export function assertPillarRendered(call: StateCall, kw: StateKwargs): void {
  const errors = pillarErrors(call, kw);
  if (!errors) return;
  throw new SALT_ERR_EXEC_COMMAND(
    `Pillar failed to render. Additional info follows:\n\n${nestedList(errors)}`,
  );
}
