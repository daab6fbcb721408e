/**
 * What every benchmark section shares: the figures collected for the JSON file, the printed
 * line per figure, timing of whole commands, and min/median/max.
 */
import { spawnSync } from 'node:child_process';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  method: string;
  /** Salt 3006's figure on this machine, when known. */
  salt?: number;
  /** The goal, when it sets one. */
  goal?: string;
  min?: number;
  max?: number;
}

export const figures: Figure[] = [];

/** Extra results of a section (tables) for the JSON file. */
export const details: Record<string, unknown> = {};

export function stats(xs: readonly number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0] ?? 0, median: s[Math.floor(s.length / 2)] ?? 0, max: s[s.length - 1] ?? 0 };
}

/** Wall seconds of `node <args>` per run. */
export function timeCommand(args: string[], runs: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0 && !args.includes('--version')) {
      process.stderr.write(`command failed (${r.status}): ${args.join(' ')}\n${r.stdout}${r.stderr}\n`);
    }
    out.push(ms / 1000);
  }
  return out;
}

export function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** Records a figure and prints its line (with Salt's figure, the goal and the range when known). */
export function report(f: Figure): void {
  figures.push(f);
  const decimals =
    f.unit === 'MiB' || f.unit === 'inodes' ? 0 : f.unit === 'jobs/s' || f.unit === 'req/s' ? 1 : 3;
  const salt = f.salt !== undefined ? `  (Salt 3006: ${f.salt} ${f.unit})` : '';
  const goal = f.goal ? `  (goal ${f.goal})` : '';
  const range =
    f.min !== undefined && f.max !== undefined
      ? `  [min ${f.min.toFixed(decimals)} max ${f.max.toFixed(decimals)}]`
      : '';
  print(
    `${f.name.padEnd(58)} ${f.value.toFixed(decimals).padStart(9)} ${f.unit.padEnd(7)}${salt}${goal}${range}`,
  );
}

/** A timing figure from repeated measurements. */
export function reportTimes(f: Omit<Figure, 'value' | 'min' | 'max'>, xs: readonly number[]): void {
  const s = stats(xs);
  report({ ...f, value: s.median, min: s.min, max: s.max });
}
