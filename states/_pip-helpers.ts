/**
 * Three helpers of Salt's `pip_state.py` that its loader exposes as `pip` state functions:
 * `purge_pip` (forget the imported pip package) and the `pip_has_*_exceptions_mod` version
 * tests. None takes a `name`, so a state run refuses them as Salt's does ("'name' is an invalid
 * keyword argument"); they are listed and documented like Salt's.
 */
import { dottedVersionCmp } from '../modules/_version-cmp.js';
import { defineState, type StateReturn } from '../plugins/states/index.js';

/** pip 10 moved its exceptions to `pip._internal.exceptions`. */
const hasInternal = (ver: unknown): boolean => dottedVersionCmp(String(ver), '10.0') >= 0;

const verArgs = (z: typeof import('zod').z) => z.object({ ver: z.unknown() });

export const pipHelpers = {
  purge_pip: defineState({
    args: (z) => z.object({}),
    doc: 'Purge pip and its sub-modules (Salt forgets its imported pip; tsalt imports none).',
    run: () => null as unknown as StateReturn,
  }),
  pip_has_internal_exceptions_mod: defineState({
    args: verArgs,
    doc: 'Whether pip at version ver keeps its exceptions in pip._internal.exceptions (pip 10 on).',
    run: (_ctx, { ver }) => hasInternal(ver) as unknown as StateReturn,
  }),
  pip_has_exceptions_mod: defineState({
    args: verArgs,
    doc: 'Whether pip at version ver keeps its exceptions in pip.exceptions (pip 1.0 up to 10).',
    run: (_ctx, { ver }) =>
      (!hasInternal(ver) && dottedVersionCmp(String(ver), '1.0') >= 0) as unknown as StateReturn,
  }),
};
