/**
 * Salt's `logrotate` execution module (salt/modules/logrotate.py): read logrotate's
 * configuration (`/etc/logrotate.conf` and the files its `include` lines name) into a
 * dictionary, and set a directive or a setting inside a `{ }` block through `file.replace`.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pyOsError } from './_py-oserror.js';

const DEFAULT_CONF = '/etc/logrotate.conf';
type Conf = Record<string, unknown>;
const isDict = (v: unknown): v is Conf => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Python's `int(str(v))` when it succeeds, else the value. */
const intOr = (v: string): string | number =>
  /^\s*[-+]?\d+(?:_\d+)*\s*$/.test(v) ? Number(v.replace(/_/g, '')) : v;

async function parseConf(file: string): Promise<Conf> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(pyOsError(err, file));
  }
  const ret: Conf = {};
  let multi = false;
  let names: string[] = [];
  let block: Conf = {};
  let prev: string[] | undefined;
  for (const raw of text.split(/(?<=\n)/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const comps = line.split(/\s+/);
    if (line.includes('{') && !line.includes('}')) {
      multi = true;
      names = comps.length === 1 && prev?.length ? prev : comps.slice(0, -1);
      continue;
    }
    if (line.includes('}')) {
      multi = false;
      for (const n of names) ret[n] = block;
      names = [];
      block = {};
      continue;
    }
    const into = multi ? block : ret;
    const [first = '', second = ''] = comps;
    if (first === 'include') {
      if (!isDict(ret['include files'])) ret['include files'] = {};
      const included = ret['include files'] as Record<string, string[]>;
      let entries: string[];
      try {
        entries = await readdir(second);
      } catch (err) {
        throw new SALT_ERR_EXEC_COMMAND(pyOsError(err, second));
      }
      for (const entry of entries) {
        const list = included[entry] ?? [];
        included[entry] = list;
        const conf = await parseConf(path.join(second, entry));
        for (const [k, v] of Object.entries(conf)) {
          ret[k] = v;
          list.push(k);
        }
      }
    }
    prev = comps;
    if (comps.length > 2) into[first] = comps.slice(1).join(' ');
    else if (comps.length > 1) into[first] = intOr(second);
    else into[first] = true;
  }
  return ret;
}

const truthy = (v: unknown) =>
  Boolean(v) && !(isDict(v) && Object.keys(v).length === 0) && !(Array.isArray(v) && v.length === 0);

/** A `{ }` block as Salt writes it: four spaces before each setting, a `true` one without value. */
function stanzaText(key: string, stanza: Conf): string {
  const body = Object.entries(stanza)
    .map(([k, v]) => `    ${k} ${v === true ? '' : String(v)}\n`)
    .join('');
  return `${key} {\n${body}}`;
}

async function setConf(
  ctx: ExecContext,
  a: { key: string; value: unknown; setting?: unknown; conf_file: string },
): Promise<unknown> {
  const conf = await parseConf(a.conf_file);
  let file = a.conf_file;
  const included = (conf['include files'] ?? {}) as Record<string, string[]>;
  if (!isDict(conf['include files'])) throw new SALT_ERR_EXEC_COMMAND("'include files'");
  for (const [inc, keys] of Object.entries(included)) {
    if (keys.includes(a.key)) file = path.join(String(conf.include), inc);
  }
  const replace: Record<string, unknown> = { path: file, backup: false, show_changes: false };
  if (a.setting === undefined || a.setting === null) {
    const current = conf[a.key] ?? false;
    if (isDict(current)) {
      throw new SALT_ERR_INVOCATION(
        `Error: ${a.key} includes a dict, and a specific setting inside the dict was not declared`,
      );
    }
    if (a.value === current) return true;
    const line = a.value === true ? a.key : truthy(a.value) ? `${a.key} ${String(a.value)}` : '';
    Object.assign(replace, { pattern: `^${a.key}.*`, flags: 8, prepend_if_not_found: true, repl: line });
  } else {
    const raw = conf[a.key] ?? {};
    if (truthy(raw) && !isDict(raw)) {
      throw new SALT_ERR_INVOCATION(
        'Error: A setting for a dict was declared, but the configuration line given is not a dict',
      );
    }
    const stanza = isDict(raw) ? raw : {};
    const valueKey = String(a.value);
    if (a.setting === (stanza[valueKey] ?? false)) return true;
    if (truthy(a.setting)) stanza[valueKey] = a.setting;
    else delete stanza[valueKey];
    Object.assign(replace, {
      pattern: `^${a.key}.*?{.*?}`,
      flags: 24,
      append_if_not_found: true,
      repl: stanzaText(a.key, stanza),
    });
  }
  return ctx.call('file.replace', [], replace);
}

export default defineModule({
  name: 'logrotate',
  doc: "Read and set logrotate's configuration (/etc/logrotate.conf and the files it includes).",
  functions: {
    show_conf: defineFunction({
      args: (z) => z.object({ conf_file: z.string().default(DEFAULT_CONF) }),
      doc: `The configuration as a dictionary: directives, each { } block under its log files' names, and
"include files" ({file: [its keys]}) for what the include lines brought in.

CLI Example:

    salt '*' logrotate.show_conf`,
      run: (_ctx, a) => parseConf(a.conf_file),
    }),
    get: defineFunction({
      args: (z) =>
        z.object({
          key: z.string(),
          value: z.unknown().optional(),
          conf_file: z.string().default(DEFAULT_CONF),
        }),
      doc: `The value of a directive, or of a block (a log file's path); with value, that setting inside the block. False when absent.

CLI Example:

    salt '*' logrotate.get rotate
    salt '*' logrotate.get /var/log/wtmp rotate /etc/logrotate.conf`,
      run: async (_ctx, a) => {
        const stanza = (await parseConf(a.conf_file))[a.key] ?? false;
        if (!truthy(a.value) || !truthy(stanza)) return stanza;
        if (!isDict(stanza))
          throw new SALT_ERR_EXEC_COMMAND(`'${typeof stanza}' object has no attribute 'get'`);
        return stanza[String(a.value)] ?? false;
      },
    }),
    set: defineFunction({
      pyName: 'set_',
      args: (z) =>
        z.object({
          key: z.string(),
          value: z.unknown(),
          setting: z.unknown().optional(),
          conf_file: z.string().default(DEFAULT_CONF),
        }),
      doc: `Set a directive (key value), or a setting inside a block (key: the block's name, value: the
setting, setting: its value; a false setting removes it). Changes the file that holds the key.

CLI Example:

    salt '*' logrotate.set rotate 2
    salt '*' logrotate.set /var/log/wtmp rotate 3`,
      run: (ctx, a) => setConf(ctx, a),
    }),
  },
});
