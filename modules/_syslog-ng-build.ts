/**
 * The config text builder of Salt's `syslog_ng` module (`salt/modules/syslog_ng.py`,
 * `_build_config_tree` and `_render_configuration`): a state's id and its parsed YAML become a
 * syslog-ng statement (`source s_in {`, `log {`, `options {`, or a given `config:` text), its
 * options (`file(`), their parameters and values, indented by four spaces a level, byte for
 * byte as Salt writes them. Input Salt's builder chokes on is Python's error as a command error.
 */
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr, pyTypeName } from '../kernel/python/index.js';

type Mapping = Record<string, unknown>;

/** Python's `type(v).__name__`. */
const typeName = (v: unknown) => pyTypeName(v).replace(/^<class '(.*)'>$/, '$1');

/** A node of the tree Salt builds; `build` renders it at an indent. */
type Node =
  | { kind: 'statement'; head: string; children: Node[] }
  | { kind: 'given'; value: unknown }
  | { kind: 'option'; type: unknown; params: Node[] }
  | { kind: 'simple'; value: unknown }
  | { kind: 'typed'; type: unknown; values: Node[]; join: string };

const STEP = '    ';

const isMapping = (v: unknown): v is Mapping => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Salt's `_is_simple_type`: str, int, float or bool. */
const isSimple = (v: unknown): boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** Python's AttributeError for `value.keys()` on what is not a dict. */
const noKeys = (value: unknown) =>
  new SALT_ERR_EXEC_COMMAND(`AttributeError: '${typeName(value)}' object has no attribute 'keys'`);

/** Salt's `_expand_one_key_dictionary`: the first key of a mapping and its value. */
function firstEntry(value: unknown): [string, unknown] {
  if (!isMapping(value)) throw noKeys(value);
  const key = Object.keys(value)[0];
  if (key === undefined) throw new SALT_ERR_EXEC_COMMAND('StopIteration');
  return [key, value[key]];
}

/** Python's `for x in value`: a list's items, a dict's keys, a string's characters. */
function items(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isMapping(value)) return Object.keys(value);
  if (typeof value === 'string') return [...value];
  throw new SALT_ERR_EXEC_COMMAND(`TypeError: '${typeName(value)}' object is not iterable`);
}

/** A one-key mapping whose value passes `test` (Salt's `_is_reference`, `_is_inline_definition`). */
const oneKey = (v: unknown, test: (x: unknown) => boolean): boolean =>
  isMapping(v) && Object.keys(v).length === 1 && test(Object.values(v)[0]);
const isReference = (v: unknown) => oneKey(v, (x) => typeof x === 'string');
const isInline = (v: unknown) => oneKey(v, Array.isArray);
const isJunction = (v: unknown) => isMapping(v) && Object.keys(v).length === 1 && 'junction' in v;

const statement = (type: unknown, id?: unknown): Extract<Node, { kind: 'statement' }> => ({
  kind: 'statement',
  head: id === undefined ? `${pyStr(type)} {` : `${pyStr(type)} ${pyStr(id)} {`,
  children: [],
});

/** One value of a typed parameter: `ip(127.0.0.1)` holds `127.0.0.1`, `tls(` holds `key_file(...)`. */
function typedValue(item: unknown): Node | undefined {
  if (isSimple(item)) return { kind: 'simple', value: item };
  if (!isMapping(item)) return undefined;
  const [type, value] = firstEntry(item);
  const args: Node[] = isSimple(value)
    ? [{ kind: 'simple', value }]
    : Array.isArray(value)
      ? value.map((v) => ({ kind: 'simple', value: v }))
      : [];
  return { kind: 'typed', type, values: args, join: '\n' };
}

/** Salt's `_parse_typed_parameter`. */
function typedParameter(param: unknown): Node {
  const [type, value] = firstEntry(param);
  const values: Node[] = [];
  if (isSimple(value) && value !== '') values.push({ kind: 'simple', value });
  else if (Array.isArray(value))
    for (const item of value) {
      const node = typedValue(item);
      if (node) values.push(node);
    }
  return { kind: 'typed', type, values, join: ',\n' };
}

/** Salt's `_create_and_add_option`: `file(` with its parameters. */
function option(item: unknown): Node {
  const [type, params] = firstEntry(item);
  const nodes: Node[] = isSimple(params)
    ? [{ kind: 'simple', value: params }]
    : items(params).map((p) => (isSimple(p) ? { kind: 'simple', value: p } : typedParameter(p)));
  return { kind: 'option', type, params: nodes };
}

/** `source s_in`'s options; an unnamed statement defined inline in a log path. */
function withOptions(node: Extract<Node, { kind: 'statement' }>, options: unknown): Node {
  for (const item of items(options)) node.children.push(option(item));
  return node;
}

/** Salt's `_add_reference`: `source(s_in);`. */
function reference(item: unknown): Node {
  const [type, value] = firstEntry(item);
  return { kind: 'option', type, params: [{ kind: 'simple', value }] };
}

function junction(item: unknown): Node {
  const [, channels] = firstEntry(item);
  const node = statement('junction');
  for (const ch of items(channels)) {
    const [, parts] = firstEntry(ch);
    const channel = statement('channel');
    for (const part of items(parts)) {
      if (isReference(part)) channel.children.push(reference(part));
      else if (isInline(part)) {
        const [type, options] = firstEntry(part);
        channel.children.push(withOptions(statement(type), options));
      }
    }
    node.children.push(channel);
  }
  return node;
}

/** Salt's `_parse_log_statement`. */
function logPath(options: unknown): Node {
  const node = statement('log');
  for (const item of items(options)) {
    if (isReference(item)) node.children.push(reference(item));
    else if (isJunction(item)) node.children.push(junction(item));
    else if (isInline(item)) {
      const [type, opts] = firstEntry(item);
      node.children.push(withOptions(statement(type), opts));
    }
  }
  return node;
}

/** Salt's `_build_config_tree`: `source.s_in` names type and id, else the config's first key is the type. */
function tree(name: string, config: unknown): Node {
  let type: string;
  let id: string;
  let options: unknown;
  const dot = name.indexOf('.');
  if (dot >= 0) {
    type = name.slice(0, dot);
    id = name.slice(dot + 1);
    options = config;
  } else {
    [type, options] = firstEntry(config);
    id = name;
  }
  if (type === 'config') return { kind: 'given', value: options };
  if (type === 'log') return logPath(options);
  const unnamed = ['log', 'channel', 'junction', 'options'].includes(type);
  return withOptions(unnamed ? statement(type) : statement(type, id), options);
}

function render(node: Node, indent: string): string {
  const inner = indent + STEP;
  const body = (nodes: Node[], join: string) =>
    nodes.length > 0 ? `${nodes.map((n) => render(n, inner)).join(join)}\n` : '';
  switch (node.kind) {
    case 'statement':
      return `${indent}${node.head}\n${node.children.map((n) => render(n, inner)).join('')}${indent}};\n`;
    case 'given':
      if (typeof node.value !== 'string')
        throw new SALT_ERR_EXEC_COMMAND(
          Array.isArray(node.value)
            ? 'TypeError: can only concatenate list (not "str") to list'
            : `TypeError: unsupported operand type(s) for +: '${typeName(node.value)}' and 'str'`,
        );
      return `${node.value}\n`;
    case 'option':
      return `${indent}${pyStr(node.type)}(\n${body(node.params, ',\n')}${indent});\n`;
    case 'simple':
      return `${indent}${pyStr(node.value)}`;
    case 'typed':
      return `${indent}${pyStr(node.type)}(\n${body(node.values, node.join)}${indent})`;
  }
}

/** The syslog-ng config text Salt's `syslog_ng.config` builds for state id `name` and its YAML. */
export function buildSyslogNgConfig(name: string, config: unknown): string {
  return render(tree(name, config), '');
}
