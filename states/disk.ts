/**
 * Salt's `disk` state module (`salt/states/disk.py`): `disk.status`, a monitoring state that
 * checks a mount point's (or a directory's) used or free space against `minimum`/`maximum`
 * thresholds, in percent (`50` or `'50%'`) or, with `absolute=True`, in KB (`'1024KB'`). It
 * changes nothing, so `test=True` runs the same check; the usage it read is in `data`.
 */
import { statSync } from 'node:fs';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

/** A number as Python shows it: `float` ones keep their `.0`. */
interface PyNum {
  value: number;
  float: boolean;
}

const show = (n: PyNum): string => (n.float && Number.isInteger(n.value) ? `${n.value}.0` : String(n.value));

/** Python's `round(x, 1)`: the nearest tenth, an exact tie to the even tenth. */
function round1(x: number): number {
  const scaled = x * 10;
  if (Math.abs(scaled % 1) === 0.5) {
    const down = Math.floor(scaled);
    return (down % 2 === 0 ? down : down + 1) / 10;
  }
  return Number(x.toFixed(1));
}

/** Python's `int(value)` after stripping `strip` and spaces from a string; undefined when it fails. */
function toInt(value: unknown, strip: string): number | undefined {
  if (typeof value === 'boolean') return Number(value);
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const chars = new Set(` ${strip}`);
  let [start, end] = [0, value.length];
  while (start < end && chars.has(value[start] as string)) start++;
  while (end > start && chars.has(value[end - 1] as string)) end--;
  const text = value.slice(start, end).trim();
  return /^[+-]?\d+(?:_\d+)*$/.test(text) ? Number(text.replace(/_/g, '')) : undefined;
}

/** Salt's `_validate_int`: the integer and '' or the reason it is refused. */
function validate(name: string, value: unknown, absolute: boolean): { value: unknown; comment: string } {
  const n = toInt(value, absolute ? 'KB' : '%');
  if (n === undefined) {
    const kept =
      typeof value === 'string' ? value.replace(absolute ? /^[ KB]+|[ KB]+$/g : /^[ %]+|[ %]+$/g, '') : value;
    return { value: kept, comment: `${name} must be an integer ` };
  }
  if (!absolute && (n < 0 || n > 100)) return { value: n, comment: `${name} must be in the range [0, 100] ` };
  return { value: n, comment: '' };
}

interface Thresholds {
  minimum: number | null;
  maximum: number | null;
  absolute: boolean;
  free: boolean;
}

/** Salt's `_check_min_max`: the comment, and whether the space is within the thresholds. */
function checkMinMax(t: Thresholds, available: PyNum, used: PyNum): { comment: string; ok: boolean } {
  const unit = t.absolute ? 'KB' : '%';
  const [what, measured] = t.free ? (['available', available] as const) : (['used', used] as const);
  if (t.minimum !== null && measured.value < t.minimum)
    return {
      comment: `Disk ${what} space is below minimum of ${t.minimum} ${unit} at ${show(measured)} ${unit}`,
      ok: false,
    };
  if (t.maximum !== null && measured.value > t.maximum)
    return {
      comment: `Disk ${what} space is above maximum of ${t.maximum} ${unit} at ${show(measured)} ${unit}`,
      ok: false,
    };
  return { comment: 'Disk used space in acceptable range', ok: true };
}

const int = (v: unknown): PyNum => ({ value: Number.parseInt(String(v).trim(), 10), float: false });

export default defineStateModule({
  name: 'disk',
  doc: 'Disk monitoring state: a mount point or directory used or free space within thresholds.',
  functions: {
    status: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          maximum: z.unknown().optional(),
          minimum: z.unknown().optional(),
          absolute: z.unknown().default(false),
          free: z.unknown().default(false),
        }),
      doc: "Return the current disk usage stats for the named mount point (or directory): maximum and minimum are percentages (50 or '50%') or, with absolute=True, KB ('1024KB'); free=True checks the available space instead of the used.",
      async run(ctx, a): Promise<StateReturn> {
        const absolute = Boolean(a.absolute);
        const free = Boolean(a.free);
        const ret: StateReturn = { name: a.name, result: false, comment: '', changes: {}, data: {} };
        let maximum: unknown = a.maximum ?? null;
        let minimum: unknown = a.minimum ?? null;
        if (maximum !== null) {
          const v = validate('maximum', maximum, absolute);
          maximum = v.value;
          ret.comment += v.comment;
        }
        if (minimum !== null) {
          const v = validate('minimum', minimum, absolute);
          minimum = v.value;
          ret.comment += v.comment;
        }
        if (minimum !== null && maximum !== null) {
          if (typeof minimum !== typeof maximum)
            throw new TypeError(
              `'>=' not supported between instances of '${typeof minimum === 'number' ? 'int' : 'str'}' and '${typeof maximum === 'number' ? 'int' : 'str'}'`,
            );
          if ((minimum as number) >= (maximum as number)) ret.comment += 'minimum must be less than maximum ';
        }
        if (ret.comment) return ret;
        const t: Thresholds = {
          minimum: minimum as number | null,
          maximum: maximum as number | null,
          absolute,
          free,
        };
        const usage = (await ctx.call('disk.usage', [])) as Record<string, Record<string, string>>;
        const mount = Object.hasOwn(usage, a.name) ? usage[a.name] : undefined;
        if (mount) {
          let used: PyNum;
          let available: PyNum;
          if (absolute) [used, available] = [int(mount.used), int(mount.available)];
          else {
            used = int(String(mount.capacity).replace(/^%+|%+$/g, ''));
            available = { value: 100 - used.value, float: false };
          }
          const check = checkMinMax(t, available, used);
          return { ...ret, data: mount, comment: check.comment, result: check.ok ? true : ret.result };
        }
        ret.comment = `Disk mount ${a.name} not present. `;
        let isDir = false;
        try {
          isDir = statSync(a.name).isDirectory();
        } catch {}
        if (!isDir)
          return {
            ...ret,
            result: false,
            comment: `${ret.comment}Directory ${a.name} does not exist or is not a directory`,
          };
        const data = (await ctx.call('status.diskusage', [a.name])) as Record<
          string,
          { available: number; total: number }
        >;
        const d = data[a.name] as { available: number; total: number };
        let used: PyNum;
        let available: PyNum;
        if (absolute) [used, available] = [int(d.total - d.available), int(d.available)];
        else if (d.total === 0) [used, available] = [int(0), int(0)];
        else {
          used = { value: round1(((d.total - d.available) / d.total) * 100), float: true };
          available = { value: round1((d.available / d.total) * 100), float: true };
        }
        const check = checkMinMax(t, available, used);
        return { ...ret, data, comment: check.comment, result: check.ok ? true : ret.result };
      },
    }),
  },
});
