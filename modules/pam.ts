/**
 * Salt's `pam` execution module (`salt/modules/pam.py`): `read_file` parses a PAM configuration
 * file into its rules. Salt's parser is naive, and tsalt keeps its answers: a line of one word,
 * a blank-but-not-empty line or an `@include` line raises Python's `IndexError` there (so Salt
 * cannot read most of Debian's /etc/pam.d files), and a bracketed control flag that is one word
 * keeps its closing `]` and swallows the words after it.
 */
import { readFile, stat } from 'node:fs/promises';
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pySplitlines, pyStr } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';
import { pyOsError } from './_py-oserror.js';
import { pySplit } from './_status-proc.js';

/** One rule of a PAM file, as Salt's `_parse` lists it. */
export interface PamRule {
  interface: string;
  control_flag: string;
  module: string;
  arguments: string[];
}

/** The word at `i`, or Python's IndexError where `comps[i]` would raise it. */
function at(comps: readonly string[], i: number): string {
  const word = comps[i];
  if (word === undefined) throw pythonError('IndexError', 'list index out of range');
  return word;
}

/** Salt's `_parse` of a PAM file's text: every line but empty ones and `#` comments is a rule. */
export function parsePam(contents: string): PamRule[] {
  const rules: PamRule[] = [];
  for (const line of pySplitlines(contents)) {
    if (!line || line.startsWith('#')) continue;
    const comps = pySplit(line);
    let position = 1;
    let controlFlag: string;
    const second = at(comps, 0) && at(comps, 1);
    if (second.startsWith('[')) {
      controlFlag = second.replaceAll('[', '');
      for (const part of comps.slice(2)) {
        position += 1;
        if (part.endsWith(']')) {
          controlFlag += ` ${part.replaceAll(']', '')}`;
          position += 1;
          break;
        }
        controlFlag += ` ${part}`;
      }
    } else {
      controlFlag = second;
      position += 1;
    }
    const module = at(comps, position);
    rules.push({
      interface: at(comps, 0),
      control_flag: controlFlag,
      module,
      arguments: comps.slice(position + 1),
    });
  }
  return rules;
}

/** Python's exception class for an OSError raised by open(). */
const OS_ERROR_CLASS: Readonly<Record<string, string>> = {
  EISDIR: 'IsADirectoryError',
  EACCES: 'PermissionError',
  EPERM: 'PermissionError',
  ENOENT: 'FileNotFoundError',
};

async function readPam(ctx: ExecContext, fileName: string): Promise<PamRule[] | false> {
  const exists =
    fileName !== '' &&
    (await stat(fileName).then(
      () => true,
      () => false,
    ));
  if (!exists) {
    ctx.log.error(`File "${fileName}" does not exist`);
    return false;
  }
  let contents: string;
  try {
    contents = await readFile(fileName, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw pythonError(OS_ERROR_CLASS[code] ?? 'OSError', pyOsError(err, fileName));
  }
  return parsePam(contents);
}

export default defineModule({
  name: 'pam',
  doc: 'Read PAM configuration files.',
  functions: {
    read_file: defineFunction({
      args: (z) => z.object({ file_name: z.unknown() }),
      doc: "Parse a PAM configuration file into its rules: interface, control flag, module and arguments (False when the file is missing).\n\nCLI Example:\n\n    salt '*' pam.read_file /etc/pam.d/sshd",
      run: (ctx, a) =>
        readPam(ctx, a.file_name === null || a.file_name === undefined ? '' : pyStr(a.file_name)),
    }),
  },
});
