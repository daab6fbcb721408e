/**
 * The `loop` variable of a `{% for %}` (Jinja2's `LoopContext`): position (`index`, `index0`,
 * `revindex`, `revindex0`, `first`, `last`, `length`, `depth`, `depth0`), neighbours (`previtem`,
 * `nextitem`, undefined at the ends), `cycle(...)`, `changed(...)`, and, in a `recursive` loop,
 * `loop(items)` to run the loop body over `items` one level deeper.
 */
import { CALLABLE, equal, JinjaFunction, type Macro, TemplateError, Undefined } from './values.js';

/** State shared by every turn of one loop: the turn, what `changed()` saw last, the methods. */
export interface LoopState {
  i: number;
  last: unknown[] | undefined;
  readonly cycle: JinjaFunction;
  readonly changed: JinjaFunction;
}

/** A new loop's state (its `cycle` and `changed` read the current turn from it). */
export function loopState(): LoopState {
  const state: LoopState = {
    i: 0,
    last: undefined,
    cycle: new JinjaFunction('loop.cycle', (args) => {
      if (args.length === 0) throw new TemplateError('no items for cycling given');
      return args[state.i % args.length];
    }),
    changed: new JinjaFunction('loop.changed', (args) => {
      if (state.last !== undefined && equal(state.last, args)) return false;
      state.last = args;
      return true;
    }),
  };
  return state;
}

/** The `loop` mapping for turn `i` of `items`. */
export function loopVariable(
  items: readonly unknown[],
  i: number,
  depth: number,
  state: LoopState,
  recurse?: Macro,
): Record<string, unknown> {
  const n = items.length;
  const loop: Record<string, unknown> = {
    index: i + 1,
    index0: i,
    revindex: n - i,
    revindex0: n - i - 1,
    first: i === 0,
    last: i === n - 1,
    length: n,
    depth,
    depth0: depth - 1,
    previtem: i > 0 ? items[i - 1] : new Undefined('there is no previous item'),
    nextitem: i < n - 1 ? items[i + 1] : new Undefined('there is no next item'),
    cycle: state.cycle,
    changed: state.changed,
  };
  state.i = i;
  Object.defineProperty(loop, CALLABLE, {
    value:
      recurse ??
      new JinjaFunction('loop', () => {
        throw new TemplateError(
          "Tried to call non recursive loop.  Maybe you forgot the 'recursive' modifier.",
        );
      }),
  });
  return loop;
}
