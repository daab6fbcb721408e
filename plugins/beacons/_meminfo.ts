/** `/proc/meminfo` as psutil reads it: each field in bytes. */
import { readFileSync } from 'node:fs';

export function meminfo(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync('/proc/meminfo', 'utf8').split('\n')) {
    const m = /^(\S+):\s+(\d+)(?:\s+kB)?/.exec(line);
    if (m) out[m[1]!] = Number(m[2]) * (line.endsWith('kB') ? 1024 : 1);
  }
  return out;
}
