/**
 * Python's two number types as templates see them. Jinja2 runs on Python, where `1` and `1.0`
 * differ: `{{ 1.0 }}` prints `1.0`, `4 / 2` is the float `2.0`, `7 // 2` the int `3`. A JS
 * number cannot tell them apart, so a float whose value is integral is held as the kernel's
 * {@link SaltFloat} (the same value the msgpack encoder writes as float 64 and the outputters
 * print as `2.0`); every other float is a plain non-integral number.
 */
import { Scalar } from 'yaml';
import { pyFloatRepr, SaltFloat } from '../../../kernel/util.js';

/** A Python number: an int (an integral JS number) or a float. */
export type PyNumber = number | SaltFloat;

/** Whether `v` is a number (not a bool: callers decide how a bool counts). */
export function isNumber(v: unknown): v is PyNumber {
  return typeof v === 'number' || v instanceof SaltFloat;
}

/** Whether `v` is a Python float (NaN and the infinities included). */
export function isFloat(v: unknown): boolean {
  return v instanceof SaltFloat || (typeof v === 'number' && !Number.isInteger(v));
}

/** Whether `v` is a Python int. */
export function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

/** The float with value `n`: marked when integral, so it keeps its `.0`. */
export function pyFloat(n: number): PyNumber {
  return Number.isInteger(n) ? new SaltFloat(n) : n;
}

/** The plain JS value of a number (a bool counts as 0 or 1). */
export function numValue(v: PyNumber | boolean): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  return typeof v === 'number' ? v : v.value;
}

/** The result of an operation on `operands`: a float when any of them is, else an int. */
export function sameKind(n: number, ...operands: readonly unknown[]): PyNumber {
  return operands.some(isFloat) ? pyFloat(n) : n;
}

/** Python's `str()` of a number: ints as digits, floats as `repr(float)` (`2.0`, `1e-05`). */
export function numStr(v: PyNumber): string {
  if (v instanceof SaltFloat) return pyFloatRepr(v.value);
  return Number.isInteger(v) ? String(v) : pyFloatRepr(v);
}

/**
 * `value` with each integral float made a YAML scalar that keeps its `.0`, for the `yaml`
 * library's `stringify` (which would otherwise print a {@link SaltFloat} as a mapping).
 */
export function yamlFloats(value: unknown): unknown {
  if (value instanceof SaltFloat) {
    const node = new Scalar(value.value);
    node.minFractionDigits = 1;
    return node;
  }
  if (Array.isArray(value)) return value.map(yamlFloats);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, yamlFloats(v)]));
  return value;
}
