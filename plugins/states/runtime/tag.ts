/**
 * The names and clocks of a state run (Salt's `_gen_tag`, `trim_req`, `_l_tag` and the
 * `start_time`/`duration` arithmetic of `salt/state.py`): a result's tag
 * `state_|-id_|-name_|-fun`, a requisite reduced to `{state: target}`, and times as Salt
 * prints them (local `HH:MM:SS.ffffff`, milliseconds with three decimals).
 */

/** The fields of a low chunk a tag is made of. */
export interface TagParts {
  state: unknown;
  __id__: unknown;
  name: unknown;
  fun: unknown;
}

/** Salt's `_gen_tag`: `state_|-id_|-name_|-fun`. */
export function genTag(low: TagParts): string {
  return `${low.state}_|-${low.__id__}_|-${low.name}_|-${low.fun}`;
}

/** The tag of a `listen` that names a missing state (Salt's `_l_tag`). */
export function listenErrorTag(name: string, id: string): string {
  return genTag({
    state: 'Listen_Error',
    __id__: `listen_${id}`,
    name: `listen_${name}`,
    fun: 'Listen_Error',
  });
}

/** A requisite as `{key: value}`: a bare string is an id, `pkg.installed: x` becomes `pkg: x` (Salt's `trim_req`). */
export function trimReq(req: unknown): [key: string, value: unknown] {
  if (typeof req === 'string') return ['id', req];
  if (req && typeof req === 'object' && !Array.isArray(req)) {
    const [first] = Object.entries(req as Record<string, unknown>);
    if (first) return [first[0].split('.')[0] ?? first[0], first[1]];
  }
  return ['id', req];
}

/** Microseconds since the epoch, from the high-resolution clock. */
export function nowMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** Local wall time as Python's `time().isoformat()`: `HH:MM:SS.ffffff` (no fraction when it is 0). */
export function startTimeOf(micros: number): string {
  const date = new Date(Math.floor(micros / 1000));
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const frac = micros % 1_000_000;
  const base = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return frac === 0 ? base : `${base}.${pad(frac, 6)}`;
}

/** Milliseconds between two microsecond stamps, to the microsecond (Salt's `duration`). */
export function durationMs(startMicros: number, endMicros: number): number {
  return Math.max(0, endMicros - startMicros) / 1000;
}

/** Salt's `_calculate_fake_duration`: a start time of now and a duration of about nothing. */
export function fakeDuration(): { start_time: string; duration: number } {
  const start = nowMicros();
  return { start_time: startTimeOf(start), duration: durationMs(start, nowMicros()) };
}
