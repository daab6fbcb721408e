/**
 * Python's `str()` of decoded data, as Salt's matchers compare values: `True`, `None`, `['a', 'b']`,
 * `{'k': 1}`.
 */

function pyRepr(value: unknown): string {
  if (typeof value === 'string') {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const body = value
      .replace(/\\/g, '\\\\')
      .replace(/\n/g, '\\n')
      .replace(/\r/g, '\\r')
      .replace(/\t/g, '\\t');
    return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
  }
  return pyStr(value);
}

/** The text Python's `str(value)` gives for a value decoded from msgpack or YAML. */
export function pyStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'nan';
    if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return `b'${Buffer.from(value).toString('latin1')}'`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  }
  return String(value);
}
