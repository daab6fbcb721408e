/**
 * Salt's `file.keyvalue` state (`salt/states/file.py`): `key<sep>value` lines of a file held
 * at the wanted values, `count` times (negative: every line), commented lines uncommented,
 * missing keys appended or prepended; the diff in Salt's own `- old`/`+ new` form.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pyStr, pyTruthy, pyTypeName } from '../kernel/util.js';
import { defineState } from '../plugins/states/index.js';
import { expandUser, fail, newRet } from './_file-common.js';

/** Python's `str.lstrip(chars)`; with no chars, whitespace. */
function lstrip(s: string, chars: string | null | undefined): string {
  if (!chars) return s.replace(/^\s+/, '');
  let i = 0;
  while (i < s.length && chars.includes(s[i]!)) i++;
  return s.slice(i);
}

/** Python's `str.partition(sep)`. */
function partition(s: string, sep: string): [string, string, string] {
  const at = s.indexOf(sep);
  return at < 0 ? [s, '', ''] : [s.slice(0, at), sep, s.slice(at + sep.length)];
}

interface Options {
  separator: string;
  count: number;
  uncomment: string | null | undefined;
  keyIgnoreCase: boolean;
  valueIgnoreCase: boolean;
}

/** One pass over the file's lines: the new lines, the diff pieces and how many lines changed. */
function rewrite(lines: readonly string[], kv: Record<string, unknown>, o: Options) {
  const diff: string[] = [];
  const content: string[] = [];
  const left: Record<string, number> = Object.fromEntries(Object.keys(kv).map((k) => [k, o.count]));
  let changes = 0;
  for (const original of lines) {
    let line = original;
    let testLine = lstrip(original, o.uncomment);
    const didUncomment = original.length > testLine.length;
    if (o.keyIgnoreCase) testLine = testLine.toLowerCase();
    for (const [key, value] of Object.entries(kv)) {
      const testKey = o.keyIgnoreCase ? key.toLowerCase() : key;
      if (!testLine.startsWith(testKey)) continue;
      const working = didUncomment ? lstrip(line, o.uncomment) : line;
      const [lineKey, lineSep, rawValue] = partition(working, o.separator);
      if (lineSep !== o.separator) continue;
      if ((o.keyIgnoreCase ? lineKey.toLowerCase() : lineKey) !== testKey) continue;
      let lineValue = rawValue.trim();
      let testValue = pyStr(value).trim();
      if (o.valueIgnoreCase) {
        lineValue = lineValue.toLowerCase();
        testValue = testValue.toLowerCase();
      }
      let valuesMatch = lineValue === testValue;
      let needsChanging = false;
      if (didUncomment) {
        if (left[key]! > 0) needsChanging = true;
        else if (!valuesMatch) valuesMatch = true;
      } else if (left[key] === 0) needsChanging = true;
      if (!valuesMatch || needsChanging) {
        diff.push(`- ${line}`);
        line = '';
        if (left[key] !== 0) {
          line = `${lineKey}${lineSep}${pyStr(value)}\n`;
          if (typeof value !== 'string') {
            const type = /'(\w+)'/.exec(pyTypeName(value))?.[1] ?? 'object';
            diff.push(`+ ${line.replace(/\s+$/, '')} (from ${type} type)\n`);
          } else diff.push(`+ ${line}`);
        }
        changes++;
      }
      if (left[key]! > 0) left[key]! -= 1;
    }
    content.push(line);
  }
  return { diff, content, left, changes };
}

export const keyvalue = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      key: z.union([z.string(), z.number(), z.boolean()]).nullish(),
      value: z.unknown().optional(),
      key_values: z.unknown().optional(),
      separator: z.string().default('='),
      append_if_not_found: z.boolean().default(false),
      prepend_if_not_found: z.boolean().default(false),
      search_only: z.boolean().default(false),
      show_changes: z.boolean().default(true),
      ignore_if_missing: z.boolean().default(false),
      count: z.number().int().default(1),
      uncomment: z.string().nullish(),
      key_ignore_case: z.boolean().default(false),
      value_ignore_case: z.boolean().default(false),
    }),
  doc: 'Key/Value based editing of a file: each key set to its value (key and value, or key_values), the separator kept.',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const ret = newRet(name, null);
    if (!name) return fail(ret, 'Must provide name to file.keyvalue');
    let kv: Record<string, unknown>;
    const isDict = (v: unknown): v is Record<string, unknown> =>
      typeof v === 'object' && v !== null && !Array.isArray(v);
    if (a.key !== null && a.key !== undefined && a.value !== null && a.value !== undefined) {
      if (isDict(a.key_values))
        return fail(ret, 'file.keyvalue can not combine key_values with key and value');
      kv = { [pyStr(a.key)]: a.value };
    } else if (!isDict(a.key_values) || !Object.keys(a.key_values).length) {
      const why = pyTruthy(a.key_values) ? 'is not a dictionary' : 'is empty';
      return fail(ret, `file.keyvalue key and value not supplied and key_values ${why}`);
    } else kv = a.key_values;
    let text: string;
    try {
      text = (await readFile(name, 'utf8')).replace(/\r\n?/g, '\n');
    } catch {
      ret.comment = `unable to open ${name}`;
      ret.result = a.ignore_if_missing;
      return ret;
    }
    const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
    const opts = {
      separator: a.separator,
      count: a.count,
      uncomment: a.uncomment,
      keyIgnoreCase: a.key_ignore_case,
      valueIgnoreCase: a.value_ignore_case,
    };
    const { diff, content, left, changes: edited } = rewrite(lines, kv, opts);
    let changes = edited;
    const missing = Object.entries(kv).filter(([k]) => left[k]! > 0);
    if (a.append_if_not_found && missing.length) {
      diff.push('- <EOF>\n');
      for (const [k, v] of missing) {
        const line = `${k}${a.separator}${pyStr(v)}\n`;
        diff.push(`+ ${line}`);
        content.push(line);
        changes++;
      }
      diff.push('+ <EOF>\n');
    } else if (!a.append_if_not_found && a.prepend_if_not_found && missing.length) {
      diff.unshift('  <SOF>\n');
      for (const [k, v] of missing) {
        const line = `${k}${a.separator}${pyStr(v)}\n`;
        diff.splice(1, 0, `+ ${line}`);
        content.unshift(line);
        changes++;
      }
    }
    if (changes <= 0) {
      ret.result = true;
      return ret;
    }
    if (ctx.test) {
      ret.comment = `File ${name} is set to be changed (${changes} lines)`;
      if (a.show_changes) {
        ret.changes.diff = diff.join('');
        ret.comment += `\nPredicted diff:\n\r\t\t${diff.join('\r\t\t')}`;
        ret.result = null;
      }
      return ret;
    }
    ret.comment = `Changed ${changes} lines`;
    if (a.show_changes) ret.changes.diff = diff.join('');
    try {
      await writeFile(name, content.join(''));
    } catch {
      ret.comment = `${name} not writable`;
      ret.result = false;
      return ret;
    }
    ret.result = true;
    return ret;
  },
});
