/**
 * Salt's `ini` execution module (salt/modules/ini_manage.py): read and edit ini files —
 * options in sections or at the top, comments and unreadable lines kept in place.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { defineFunction, defineModule, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { IniSection, parseIni, renderIni } from './_ini-doc.js';
import { pyOsError } from './_py-oserror.js';

/** Python codec names for Node's: the ones ini files are written in. */
const ENCODINGS: Readonly<Record<string, BufferEncoding>> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  utf_8: 'utf8',
  'latin-1': 'latin1',
  latin1: 'latin1',
  'iso-8859-1': 'latin1',
  iso8859_1: 'latin1',
  ascii: 'ascii',
  'us-ascii': 'ascii',
  'utf-16-le': 'utf16le',
};

function encodingOf(encoding: string | null | undefined): BufferEncoding {
  if (!encoding) return 'utf8';
  const found = ENCODINGS[encoding.toLowerCase()];
  if (!found) throw new SALT_ERR_EXEC_COMMAND(`unknown encoding: ${encoding}`);
  return found;
}

type Where = { file_name: string; separator: string; encoding?: string | null | undefined };

async function load(a: Where, noSpaces = false): Promise<IniSection> {
  const enc = encodingOf(a.encoding);
  let text: string;
  try {
    text = await readFile(a.file_name, enc);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return new IniSection(a.file_name, a.separator, noSpaces);
    throw new SALT_ERR_EXEC_COMMAND(
      `Unable to open file '${a.file_name}'. Exception: ${pyOsError(err, a.file_name)}`,
    );
  }
  return parseIni(a.file_name, text, a.separator, noSpaces);
}

async function flush(a: Where, ini: IniSection): Promise<void> {
  try {
    await writeFile(a.file_name, renderIni(ini), encodingOf(a.encoding));
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(
      `Unable to write file '${a.file_name}'. Exception: ${pyOsError(err, a.file_name)}`,
    );
  }
}

const tail = (z: typeof import('zod').z) => ({
  separator: z.string().default('='),
  encoding: z.string().nullish(),
});

/** A section name as a dict key: Python looks up the YAML-typed value, so only strings find one. */
const key = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;
const common = `separator: the character between option names and values (default "=").
encoding: the file's encoding (default: the system's, UTF-8).`;

export default defineModule({
  name: 'ini',
  doc: 'Read and edit ini files: options in [sections] or at the top of the file, comments kept.',
  functions: {
    set_option: defineFunction({
      args: (z) =>
        z.object({
          file_name: z.string(),
          sections: z.record(z.string(), z.unknown()).nullish(),
          separator: z.string().default('='),
          encoding: z.string().nullish(),
          no_spaces: z.unknown().default(false),
        }),
      doc: `Set options in an ini file (created when missing) and return what changed:
{option: {before, after}} at the top level, {section: {option: {before, after}}} inside one.

sections: {section: {option: value}}; a value that is not a mapping is a top-level option.
An option that only a comment line holds (\`#port = 80\`) replaces that line.
${common}
no_spaces: write every separator without the spaces around it (the whole file).${cli("ini.set_option /path/to/ini '{section_foo: {key: value}}'")}`,
      run: async (_ctx, a) => {
        const ini = await load(a, pyTruthy(a.no_spaces));
        const changes = ini.update(Object.entries(a.sections ?? {}));
        await flush(a, ini);
        return changes;
      },
    }),
    get_option: defineFunction({
      args: (z) => z.object({ file_name: z.string(), section: z.unknown(), option: z.unknown(), ...tail(z) }),
      doc: `The value of an option, or None when it is not there.

section: the option's section; empty for a top-level option.
option: the option's name.
${common}${cli('ini.get_option /path/to/ini section_name option_name')}`,
      run: async (_ctx, a) => {
        const ini = await load(a);
        const opt = key(a.option);
        if (pyTruthy(a.section)) {
          const sect = ini.entries.get(key(a.section) ?? '\0');
          if (!(sect instanceof IniSection) || opt === undefined) return null;
          const v = sect.entries.get(opt);
          return v instanceof IniSection ? v.toPlain() : (v ?? null);
        }
        const v = opt === undefined ? undefined : ini.entries.get(opt);
        return v instanceof IniSection ? v.toPlain() : (v ?? null);
      },
    }),
    remove_option: defineFunction({
      args: (z) => z.object({ file_name: z.string(), section: z.unknown(), option: z.unknown(), ...tail(z) }),
      doc: `Remove an option and return its value, or None when there was none (the file is written back either way).

section: the option's section; empty (or a name that is no section) for a top-level option.
option: the option's name.
${common}${cli('ini.remove_option /path/to/ini section_name option_name')}`,
      run: async (_ctx, a) => {
        const ini = await load(a);
        const sect = ini.entries.get(key(a.section) ?? '\0');
        const from = sect instanceof IniSection ? sect : ini;
        const opt = key(a.option);
        const v = opt === undefined ? undefined : from.entries.get(opt);
        if (opt !== undefined) from.entries.delete(opt);
        await flush(a, ini);
        return v instanceof IniSection ? v.toPlain() : (v ?? null);
      },
    }),
    get_section: defineFunction({
      args: (z) => z.object({ file_name: z.string(), section: z.unknown(), ...tail(z) }),
      doc: `A section's options as a dictionary ({} when there is no such section).

section: the section's name.
${common}${cli('ini.get_section /path/to/ini section_name')}`,
      run: async (_ctx, a) => {
        const sect = (await load(a)).entries.get(key(a.section) ?? '\0');
        if (typeof sect === 'string')
          throw new SALT_ERR_EXEC_COMMAND(`'str' object has no attribute 'items'`);
        return sect ? sect.toData() : {};
      },
    }),
    remove_section: defineFunction({
      args: (z) => z.object({ file_name: z.string(), section: z.unknown(), ...tail(z) }),
      doc: `Remove a section and return its options, or None when there was no such section.

section: the section's name.
${common}${cli('ini.remove_section /path/to/ini section_name')}`,
      run: async (_ctx, a) => {
        const ini = await load(a);
        const name = key(a.section);
        const sect = name === undefined ? undefined : ini.entries.get(name);
        if (sect === undefined || name === undefined) return null;
        if (typeof sect === 'string')
          throw new SALT_ERR_EXEC_COMMAND(`'str' object has no attribute 'items'`);
        ini.entries.delete(name);
        await flush(a, ini);
        return sect.toData();
      },
    }),
    get_ini: defineFunction({
      args: (z) => z.object({ file_name: z.string(), ...tail(z) }),
      doc: `The whole file as a dictionary: top-level options, and each section as a dictionary of its options.

${common}${cli('ini.get_ini /path/to/ini')}`,
      run: async (_ctx, a) => (await load(a)).toData(),
    }),
  },
});
