/**
 * `--grains-spread key=v1,v2,...`: per-minion grains spread over the swarm. Minion `i` gets
 * `values[i % values.length]` for each key, so a spread of `role=web,db` makes even minions
 * `web` and odd ones `db`, and a target such as `-G role:db` addresses a known subset.
 */

export type GrainsSpread = ReadonlyArray<{ key: string; values: readonly string[] }>;

/** Parses one `key=v1,v2,...` option (a dotted key nests: `a.b=x` gives `{a: {b: 'x'}}`). */
export function parseSpread(specs: readonly string[]): GrainsSpread {
  return specs.map((spec) => {
    const eq = spec.indexOf('=');
    const key = eq > 0 ? spec.slice(0, eq).trim() : '';
    const values =
      eq > 0
        ? spec
            .slice(eq + 1)
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean)
        : [];
    if (!key || values.length === 0) {
      throw new Error(`--grains-spread wants key=value1,value2,...; got ${JSON.stringify(spec)}`);
    }
    return { key, values };
  });
}

/** The spread grains of minion number `index`. */
export function spreadGrains(spread: GrainsSpread, index: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, values } of spread) {
    const value = values[index % values.length];
    const path = key.split('.');
    let node = out;
    for (const part of path.slice(0, -1)) {
      const child = node[part];
      node[part] = typeof child === 'object' && child !== null ? child : {};
      node = node[part] as Record<string, unknown>;
    }
    node[path[path.length - 1] as string] = value;
  }
  return out;
}

/** How many of `count` minions (indexes `0..count-1`) have `key` = `value`. */
export function countWith(spread: GrainsSpread, count: number, key: string, value: string): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    let node: unknown = spreadGrains(spread, i);
    for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
    if (node === value) n++;
  }
  return n;
}

/** The minion ids of a swarm: `<prefix><index>` with the index zero-padded to the width of `count`. */
export function minionId(prefix: string, index: number, count: number): string {
  return `${prefix}${String(index).padStart(String(Math.max(1, count - 1)).length, '0')}`;
}
