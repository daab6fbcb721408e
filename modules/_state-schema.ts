/**
 * Salt's `sys.state_schema` (`_argspec_to_schema` in `salt/modules/sysmod.py`, serialized by
 * `salt.utils.schema`): for each state function of a `sys.state_argspec` report, a JSON Schema
 * (draft 04) whose properties are its arguments, each one of boolean, integer, number or string,
 * with the argument's default when it has one that is not None.
 */
import type { ArgSpec } from './_sys-report.js';

const TYPES = ['boolean', 'integer', 'number', 'string'] as const;

function property(name: string, withDefault: boolean, value: unknown): Record<string, unknown> {
  const shown = withDefault && value !== null && value !== undefined;
  return {
    oneOf: TYPES.map((type) => ({
      type,
      title: name,
      description: name,
      ...(shown ? { default: value } : {}),
    })),
  };
}

/** The schema of one state function from its argspec. */
export function argspecToSchema(fun: string, spec: ArgSpec): Record<string, unknown> {
  const args = spec.args ?? [];
  const defaults = spec.defaults ?? [];
  const required = args.length - defaults.length;
  const properties: Record<string, unknown> = {};
  // Salt's zip(args[-len(defaults):], defaults): with no defaults, none has one
  args.forEach((arg, i) => {
    const at = i - required;
    properties[arg] = property(arg, defaults.length > 0 && at >= 0, defaults[at]);
  });
  const schema: Record<string, unknown> = {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: fun,
    description: fun,
    type: 'object',
  };
  if (args.length > 0) Object.assign(schema, { properties, 'x-ordering': [...args] });
  schema.additionalProperties = false;
  return schema;
}
