/**
 * Which mappings keep their key order when a template dumps them through `yaml`. Salt's YAML
 * renderer builds OrderedDicts (the mappings of SLS and pillar files), which PyYAML's dumper writes
 * in their own order; every other mapping (a Jinja literal, `import_yaml`, a module's return) is
 * a dict, whose keys it sorts. Deep copies keep the mark, as `copy.deepcopy` keeps the class.
 */
const ORDERED = new WeakSet<object>();

/** Marks `mapping` as one the YAML renderer built (an OrderedDict in Salt). */
export function markOrdered<T extends object>(mapping: T): T {
  ORDERED.add(mapping);
  return mapping;
}

/** Whether `value` is a mapping the YAML renderer built, or a copy of one. */
export function isOrdered(value: unknown): boolean {
  return typeof value === 'object' && value !== null && ORDERED.has(value);
}
