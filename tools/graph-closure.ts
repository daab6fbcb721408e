/** The nodes reachable from `entries` (themselves included), `next` giving each node's edges. */
export function graphClosure(
  entries: readonly string[],
  next: (node: string) => readonly string[],
): Set<string> {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length) {
    const node = stack.pop() as string;
    if (seen.has(node)) continue;
    seen.add(node);
    stack.push(...next(node));
  }
  return seen;
}
