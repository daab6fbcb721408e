/**
 * Salt's `file.line` state (`salt/states/file.py`): the execution side's `file.line` edit
 * (modules/_file-line.ts) as a state, with `create` making an empty file first (owner and
 * `file_mode` applied) as Salt's call to `managed(..., replace=False)` does.
 */
import { chmod, chown, writeFile } from 'node:fs/promises';
import type { z as Zod } from 'zod';
import { editLine } from '../modules/_file-line.js';
import { groupToGid, lexists, normalizeMode, userToUid } from '../modules/_file-stat.js';
import { defineState } from '../plugins/states/index.js';
import { checkFile, expandUser, fail, newRet } from './_file-common.js';

const text = (z: typeof Zod) => z.union([z.string(), z.number()]).transform(String).nullish();

/** The empty file `create` asks for, owned and moded as asked (nothing under test). */
async function createEmpty(name: string, user: unknown, group: unknown, mode: unknown): Promise<void> {
  if (await lexists(name)) return;
  try {
    await writeFile(name, '', { flag: 'wx' });
  } catch {
    return; // Salt's managed() fails here without a word; the file check below reports it
  }
  const uid = user == null ? -1 : userToUid(user as string);
  const gid = group == null ? -1 : groupToGid(group as string);
  if (uid !== '' && gid !== '' && (uid !== -1 || gid !== -1)) await chown(name, uid, gid);
  const m = normalizeMode(mode);
  if (m) await chmod(name, Number.parseInt(m, 8));
}

export const line = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      content: text(z),
      match: text(z),
      mode: z.string().nullish(),
      location: z.string().nullish(),
      before: text(z),
      after: text(z),
      show_changes: z.boolean().default(true),
      backup: z.union([z.boolean(), z.string()]).default(false),
      quiet: z.boolean().default(false),
      indent: z.boolean().default(true),
      create: z.boolean().default(false),
      user: z.union([z.string(), z.number()]).nullish(),
      group: z.union([z.string(), z.number()]).nullish(),
      file_mode: z.union([z.string(), z.number()]).nullish(),
    }),
  doc: 'Line-focused editing of a file: mode ensure, replace, delete or insert, located by match, before, after or location.',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const ret = newRet(name);
    if (!name) return fail(ret, 'Must provide name to file.line');
    if (a.create && !ctx.test) await createEmpty(name, a.user, a.group, a.file_mode);
    const [ok, why] = await checkFile(name);
    if (!ok) return fail(ret, why);
    const mode = a.mode ? a.mode.toLowerCase() : a.mode;
    if (!mode) return fail(ret, 'Mode was not defined. How to process the file?');
    if (mode !== 'delete' && (a.content === null || a.content === undefined))
      return fail(ret, "Content can only be empty if mode is ['delete']");
    const changes = await editLine(name, {
      content: a.content,
      match: a.match,
      mode,
      location: a.location,
      before: a.before,
      after: a.after,
      showChanges: a.show_changes,
      backup: a.backup,
      quiet: a.quiet,
      indent: a.indent,
      test: ctx.test,
    });
    if (changes) {
      ret.changes.diff = changes;
      ret.result = ctx.test ? null : true;
      ret.comment = ctx.test ? 'Changes would be made' : 'Changes were made';
    } else ret.comment = 'No changes needed to be made';
    return ret;
  },
});
