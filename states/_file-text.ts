/**
 * The `file` states that edit text in place (Salt's `salt/states/file.py` `append`, `prepend`,
 * `replace`, `blockreplace`, `comment`, `uncomment`): each searches first so a second run
 * changes nothing, reports the unified diff as Salt formats it (append's quirky `\n`-joined
 * one included), and predicts under `test=True`.
 */
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z as Zod } from 'zod';
import { unifiedDiff, unifiedDiffPieces } from '../modules/_file-diff.js';
import { blockReplace, commentLine, replaceInFile, searchFile } from '../modules/_file-edit.js';
import { makeParents } from '../modules/_file-manage.js';
import { isDir, isFile } from '../modules/_file-stat.js';
import { defineState, type StateContext } from '../plugins/states/index.js';
import { blockAccumulated } from './_file-accumulated.js';
import { checkFile, expandUser, fail, newRet, type Ret, strList } from './_file-common.js';
import { touch } from './_file-paths.js';

const pyFlag = (z: typeof Zod, d: boolean) => z.boolean().default(d);

/** Python's `str.splitlines()` (ends dropped) and `splitlines(True)` (kept). */
function splitLines(text: string, keep = false): string[] {
  const out = text.match(/[^\r\n]*(?:\r\n|\n|\r)|[^\r\n]+$/g) ?? [];
  return keep ? out : out.map((l) => l.replace(/(\r\n|\n|\r)$/, ''));
}

function reEscape(s: string): string {
  return s.replace(/[^A-Za-z0-9_]/g, (c) => `\\${c}`);
}

/** Salt's `build_whitespace_split_regex`: the text's words with any whitespace between. */
export function whitespaceSplitRegex(text: string): string {
  let regex = '';
  for (const line of splitLines(text)) {
    const parts = line.split(/\s+/).filter(Boolean).map(reEscape);
    regex += `(?:[\\s]+)?${parts.join('(?:[\\s]+)?')}(?:[\\s]+)?`;
  }
  return `(?m)^${regex}$`;
}

/** Creates a missing file the way `append`/`prepend` do (through `file.touch`); a return when it stops there. */
async function ensureFile(
  ctx: StateContext,
  name: string,
  makedirs: boolean,
  ret: Ret,
): Promise<Ret | undefined> {
  if (makedirs) {
    if (ctx.test) {
      ret.comment = `Directory ${dirname(name)} is set to be updated`;
      ret.result = null;
    } else if (!(await isDir(dirname(name)))) await makeParents(name, null, null, null);
  }
  const [ok, msg] = await checkFile(name);
  if (ok) return undefined;
  const touched = (await touch.run(
    ctx,
    { name, atime: null, mtime: null, makedirs },
    { args: [], kwargs: {} },
  )) as Ret;
  if (ctx.test) return touched;
  if (!(await isFile(name))) return fail(ret, msg);
  return undefined;
}

const textArgs = (z: typeof Zod) =>
  z.object({
    name: z.string(),
    text: z.union([z.string(), z.array(z.unknown()), z.number()]).nullish(),
    makedirs: pyFlag(z, false),
    source: z.unknown().optional(),
    source_hash: z.string().nullish(),
    template: z.string().default('jinja'),
    sources: z.unknown().optional(),
    source_hashes: z.unknown().optional(),
    defaults: z.unknown().optional(),
    context: z.unknown().optional(),
  });

/** Salt's `append` takes `ignore_whitespace`, its `prepend` `header` (shown as None). */
const appendArgs = (z: typeof Zod) => textArgs(z).extend({ ignore_whitespace: pyFlag(z, true) });
const prependArgs = (z: typeof Zod) =>
  textArgs(z).extend({ header: pyFlag(z, false).meta({ argspecDefault: null }) });

export const append = defineState({
  args: appendArgs,
  doc: 'Ensure that some text appears at the end of a file.',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const ret = newRet(name, false);
    if (!name) return fail(ret, 'Must provide name to file.append');
    const stop = await ensureFile(ctx, name, a.makedirs, ret);
    if (stop) return stop;
    const text = strList(a.text);
    const slines = splitLines(await readFile(name, 'utf8'));
    const add: string[] = [];
    for (const chunk of text) {
      const pattern = a.ignore_whitespace ? whitespaceSplitRegex(chunk) : chunk;
      if (await searchFile(name, pattern, true)) continue;
      add.push(...splitLines(chunk));
    }
    const diff = (before: string[], after: string[]) => unifiedDiffPieces(before, after).join('\n');
    if (ctx.test) {
      const nlines = [...slines, ...add];
      if (add.length) {
        ret.comment = `File ${name} is set to be updated`;
        ret.result = null;
        ret.changes.diff = diff(slines, nlines);
      } else {
        ret.comment = `File ${name} is in correct state`;
        ret.result = true;
      }
      return ret;
    }
    if (add.length) {
      const cur = await readFile(name);
      if (cur.length && cur[cur.length - 1] !== 0x0a) await appendFile(name, '\n');
      await appendFile(name, add.map((l) => `${l}\n`).join(''));
      ret.comment = `Appended ${add.length} lines`;
    } else ret.comment = `File ${name} is in correct state`;
    const nlines = splitLines(await readFile(name, 'utf8'));
    if (nlines.join('\n') !== slines.join('\n') || nlines.length !== slines.length)
      ret.changes.diff = diff(slines, nlines);
    ret.result = true;
    return ret;
  },
});

export const prepend = defineState({
  args: prependArgs,
  doc: 'Ensure that some text appears at the beginning of a file.',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const ret = newRet(name, false);
    if (!name) return fail(ret, 'Must provide name to file.prepend');
    const stop = await ensureFile(ctx, name, a.makedirs, ret);
    if (stop) return stop;
    const text = strList(a.text);
    const slines = splitLines(await readFile(name, 'utf8'), true);
    const preface: string[] = [];
    for (const chunk of text) {
      if (!a.header && (await searchFile(name, whitespaceSplitRegex(chunk), true))) continue;
      for (const line of splitLines(chunk)) {
        if (ctx.test) {
          ret.comment = `File ${name} is set to be updated`;
          ret.result = null;
        }
        preface.push(line);
      }
    }
    let count = preface.length;
    if (ctx.test) {
      const nlines = [...preface.map((l) => `${l}\n`), ...slines];
      if (preface.length) {
        ret.changes.diff = unifiedDiff(slines, nlines);
        ret.result = null;
      } else {
        ret.comment = `File ${name} is in correct state`;
        ret.result = true;
      }
      return ret;
    }
    let write = true;
    if (a.header) {
      const head = slines.slice(0, preface.length).flatMap((l) => splitLines(l));
      if (head.join('\n') === preface.join('\n') && head.length === preface.length) {
        write = false;
        count = 0;
      }
    }
    if (write && preface.length)
      await writeFile(name, preface.map((l) => `${l}\n`).join('') + slines.join(''));
    const nlines = splitLines(await readFile(name, 'utf8'), true);
    if (nlines.join('') !== slines.join('')) ret.changes.diff = unifiedDiff(slines, nlines);
    ret.comment = count ? `Prepended ${count} lines` : `File ${name} is in correct state`;
    ret.result = true;
    return ret;
  },
});

export const replace = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      pattern: z.string(),
      repl: z.union([z.string(), z.number()]).transform(String),
      count: z.number().default(0),
      flags: z.unknown().default(8),
      bufsize: z.unknown().default(1),
      append_if_not_found: pyFlag(z, false),
      prepend_if_not_found: pyFlag(z, false),
      not_found_content: z.string().nullish(),
      backup: z.union([z.string(), z.literal(false)]).default('.bak'),
      show_changes: pyFlag(z, true),
      ignore_if_missing: pyFlag(z, false),
      backslash_literal: pyFlag(z, false),
    }),
  doc: 'Maintain an edit in a file: replace occurrences of a pattern.',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const ret = newRet(name);
    if (!name) return fail(ret, 'Must provide name to file.replace');
    const [ok, msg] = await checkFile(name);
    if (!ok) {
      if (a.ignore_if_missing && msg.includes('file not found')) {
        ret.comment = 'No changes needed to be made';
        return ret;
      }
      return fail(ret, msg);
    }
    const changes = await replaceInFile(
      name,
      a.pattern,
      a.backslash_literal ? a.repl.replace(/\\/g, '\\\\') : a.repl,
      {
        count: a.count,
        flags: a.flags,
        appendIfNotFound: a.append_if_not_found,
        prependIfNotFound: a.prepend_if_not_found,
        notFoundContent: a.not_found_content,
        backup: a.backup,
        dryRun: ctx.test,
        showChanges: a.show_changes,
        ignoreIfMissing: a.ignore_if_missing,
      },
    );
    if (changes) {
      ret.changes.diff = changes;
      ret.result = ctx.test ? null : true;
      ret.comment = ctx.test ? 'Changes would have been made' : 'Changes were made';
    } else ret.comment = 'No changes needed to be made';
    return ret;
  },
});

export const blockreplace = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      marker_start: z.string().default('#-- start managed zone --'),
      marker_end: z.string().default('#-- end managed zone --'),
      source: z.unknown().optional(),
      source_hash: z.string().nullish(),
      template: z.string().default('jinja'),
      sources: z.unknown().optional(),
      source_hashes: z.unknown().optional(),
      defaults: z.unknown().optional(),
      context: z.unknown().optional(),
      content: z.union([z.string(), z.number()]).transform(String).default(''),
      append_if_not_found: pyFlag(z, false),
      prepend_if_not_found: pyFlag(z, false),
      backup: z.union([z.string(), z.literal(false)]).default('.bak'),
      show_changes: pyFlag(z, true),
      append_newline: z.boolean().nullish(),
      insert_before_match: z.string().nullish(),
      insert_after_match: z.string().nullish(),
    }),
  doc: 'Maintain an edit in a file in a zone delimited by two line markers.',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const ret = newRet(name, false);
    if (!name) return fail(ret, 'Must provide name to file.blockreplace');
    const [ok, msg] = await checkFile(name);
    if (!ok) return fail(ret, msg);
    let changes: string | boolean;
    try {
      changes = await blockReplace(name, {
        markerStart: a.marker_start,
        markerEnd: a.marker_end,
        content: blockAccumulated(ctx, name, String(ctx.low.__id__ ?? ''), a.content),
        appendIfNotFound: a.append_if_not_found,
        prependIfNotFound: a.prepend_if_not_found,
        backup: a.backup,
        insertBeforeMatch: a.insert_before_match,
        insertAfterMatch: a.insert_after_match,
        appendNewline: a.append_newline ?? null,
        dryRun: ctx.test,
        showChanges: a.show_changes,
      });
    } catch (err) {
      ret.comment = `Encountered error managing block: ${(err as Error).message}. See the log for details.`;
      return ret;
    }
    if (changes) {
      ret.changes.diff = changes;
      ret.result = ctx.test ? null : true;
      ret.comment = ctx.test ? 'Changes would be made' : 'Changes were made';
    } else {
      ret.result = true;
      ret.comment = 'No changes needed to be made';
    }
    return ret;
  },
});

async function commentState(
  ctx: StateContext,
  name: string,
  regex: string,
  char: string,
  backup: string | false,
  ignoreMissing: boolean,
  cmnt: boolean,
): Promise<Ret> {
  const ret = newRet(name, false);
  if (!name) return fail(ret, `Must provide name to file.${cmnt ? 'comment' : 'uncomment'}`);
  const [ok, msg] = await checkFile(name);
  if (!ok) return fail(ret, msg);
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let doneRe: string;
  if (cmnt) {
    const unanchor = regex.replace(/^(\(\?[iLmsux]\))?\^?(.*?)\$?$/, '$2');
    const todo = `^(?!\\s*${esc(char)})\\s*${unanchor}`;
    doneRe = `${esc(char)}${unanchor}`;
    if (!(await searchFile(name, todo, true))) {
      if (await searchFile(name, doneRe, true))
        return { ...ret, result: true, comment: 'Pattern already commented' };
      if (ignoreMissing)
        return { ...ret, result: true, comment: 'Pattern not found and ignore_missing set to True' };
      return fail(ret, `${unanchor}: Pattern not found`);
    }
  } else {
    const bare = regex.replace(/^\^+/, '');
    doneRe = `^[ \\t]*${bare}`;
    if (!(await searchFile(name, `${esc(char)}[ \\t]*${bare}`, true))) {
      if (await searchFile(name, doneRe, true))
        return { ...ret, result: true, comment: 'Pattern already uncommented' };
      return fail(ret, `${regex}: Pattern not found`);
    }
  }
  if (ctx.test)
    return {
      ...ret,
      result: null,
      comment: `File ${name} is set to be updated`,
      changes: { [name]: 'updated' },
    };
  const before = splitLines(await readFile(name, 'utf8'), true);
  await commentLine(name, regex, char, cmnt, backup);
  const after = splitLines(await readFile(name, 'utf8'), true);
  ret.result = await searchFile(name, doneRe, true);
  if (before.join('') !== after.join('')) ret.changes.diff = unifiedDiff(before, after);
  const word = cmnt ? 'commented' : 'uncommented';
  ret.comment = ret.result
    ? `${cmnt ? 'Commented' : 'Uncommented'} lines successfully`
    : `Expected ${word} lines not found`;
  return ret;
}

export const comment = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      regex: z.string(),
      char: z.string().default('#'),
      backup: z.union([z.string(), z.literal(false)]).default('.bak'),
      ignore_missing: pyFlag(z, false),
    }),
  doc: 'Comment out specified lines in a file.',
  run: (ctx, a) => commentState(ctx, expandUser(a.name), a.regex, a.char, a.backup, a.ignore_missing, true),
});

export const uncomment = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      regex: z.string(),
      char: z.string().default('#'),
      backup: z.union([z.string(), z.literal(false)]).default('.bak'),
    }),
  doc: 'Uncomment specified commented lines in a file.',
  run: (ctx, a) => commentState(ctx, expandUser(a.name), a.regex, a.char, a.backup, false, false),
});
