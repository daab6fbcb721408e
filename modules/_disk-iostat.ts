/**
 * Salt's `disk._iostat_linux`: `iostat -x` reports read as Salt 3006 reads them, each column
 * averaged over the reports in exact decimals and rounded half-even to hundredths. Salt looks
 * for a `Device:` header, which sysstat 11.5 and later print without the colon: there Salt (and so
 * tsalt) returns the CPU averages (`sys`) only.
 */
import { float64, type SaltFloat } from '../kernel/util.js';
import { pySplit } from './_status-proc.js';

const SCALE = 6; // decimals kept exactly; iostat prints two

/** A decimal text as an integer count of 10^-SCALE, or undefined when it is not a number. */
function fixed(text: string): bigint | undefined {
  const m = /^([-+]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (!m[2] && !m[3])) return undefined;
  const frac = (m[3] ?? '').padEnd(SCALE, '0').slice(0, SCALE);
  const v = BigInt(`${m[2] || '0'}${frac}`);
  return m[1] === '-' ? -v : v;
}

/** The mean of exact decimals, quantized to 0.01 with ties to even (Python's Decimal default). */
export function meanHundredths(values: readonly bigint[]): number {
  const sum = values.reduce((a, b) => a + b, 0n);
  const den = BigInt(values.length) * 10n ** BigInt(SCALE - 2);
  const neg = sum < 0n;
  const abs = neg ? -sum : sum;
  let q = abs / den;
  const r = abs - q * den;
  if (2n * r > den || (2n * r === den && q % 2n === 1n)) q += 1n;
  return Number(neg ? -q : q) / 100;
}

function averaged(header: readonly string[], rows: readonly bigint[][]): Record<string, SaltFloat> {
  const out: Record<string, SaltFloat> = {};
  const width = Math.min(header.length, ...rows.map((r) => r.length));
  for (let i = 0; i < width; i++) out[header[i]!] = float64(meanHundredths(rows.map((r) => r[i]!)));
  return out;
}

/** Parses `iostat -x` output as Salt does; a value that is no decimal is Salt's InvalidOperation. */
export function parseIostat(out: string): Record<string, Record<string, SaltFloat>> {
  const lines = out.split(/\r\n|\r|\n/);
  let sysHeader: string[] = [];
  let devHeader: string[] = [];
  const sysRows: bigint[][] = [];
  const devRows = new Map<string, bigint[][]>();
  const nums = (fields: string[]) =>
    fields.map((f) => {
      const v = fixed(f);
      if (v === undefined) throw new Error(`decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]`);
      return v;
    });
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('avg-cpu:')) {
      if (!sysHeader.length) sysHeader = pySplit(line).slice(1);
      sysRows.push(nums(pySplit(lines[++i] ?? '')));
    } else if (line.startsWith('Device:')) {
      if (!devHeader.length) devHeader = pySplit(line).slice(1);
      while (i + 1 < lines.length) {
        const next = lines[++i]!;
        if (!next || !/^[A-Za-z0-9]/.test(next)) break;
        const f = pySplit(next);
        const rows = devRows.get(f[0]!) ?? [];
        rows.push(nums(f.slice(1)));
        devRows.set(f[0]!, rows);
      }
    }
  }
  const ret: Record<string, Record<string, SaltFloat>> = {};
  if (sysHeader.length) ret.sys = averaged(sysHeader, sysRows);
  for (const [disk, rows] of devRows) ret[disk] = averaged(devHeader, rows);
  return ret;
}
