/**
 * `file.managed` (Salt's `salt/states/file.py` `managed`): a file's content from a source
 * (`salt://`, `http(s)://` with `source_hash`, a local path, a list of them), from `contents`,
 * `contents_pillar` or `contents_grains`, optionally rendered with a template, plus owner and
 * mode; `test=True` reports the changes (the unified diff) without touching the disk.
 */
import { isAbsolute } from 'node:path';
import type { z as Zod } from 'zod';
import {
  checkManagedChanges,
  getManaged,
  type ManagedSpec,
  type ManageOptions,
  manageFile,
} from '../modules/_file-manage.js';
import { checkPerms, checkUser } from '../modules/_file-perms.js';
import { fileClient, getSourceSum, type SourceSpec, schemeOf, sourceList } from '../modules/_file-source.js';
import { hashFile, isDir, lexists, normalizeMode } from '../modules/_file-stat.js';
import { renderText } from '../modules/_file-template.js';
import { traverse } from '../modules/_traverse.js';
import { defineState, type StateContext } from '../plugins/states/index.js';
import { managedAccumulator } from './_file-accumulated.js';
import { checkBeforeManage } from './_file-check-cmd.js';
import { expandUser, fail, newRetSorted, type Ret } from './_file-common.js';

const owner = (z: typeof Zod) => z.union([z.string(), z.number()]).nullish();
const flag = (z: typeof Zod, d: boolean) =>
  z
    .unknown()
    .optional()
    .transform((v) => (v === undefined || v === null ? d : Boolean(v) && v !== 'False' && v !== 'false'));

export const managedArgs = (z: typeof Zod) =>
  z.object({
    name: z.string(),
    source: z.unknown().optional(),
    source_hash: z.string().nullish(),
    source_hash_name: z.string().nullish(),
    keep_source: flag(z, true),
    user: owner(z),
    group: owner(z),
    mode: z.union([z.string(), z.number()]).nullish(),
    attrs: z.string().nullish(),
    template: z.string().nullish(),
    makedirs: flag(z, false),
    dir_mode: z.union([z.string(), z.number()]).nullish(),
    context: z.unknown().optional(),
    replace: flag(z, true),
    defaults: z.unknown().optional(),
    backup: z.union([z.string(), z.literal(false)]).nullish(),
    show_changes: flag(z, true),
    create: flag(z, true),
    contents: z.unknown().optional(),
    contents_pillar: z.union([z.string(), z.array(z.string())]).nullish(),
    contents_grains: z.union([z.string(), z.array(z.string())]).nullish(),
    contents_newline: flag(z, true),
    contents_delimiter: z.string().default(':'),
    encoding: z.string().nullish(),
    allow_empty: flag(z, true),
    follow_symlinks: flag(z, true),
    skip_verify: flag(z, false),
    check_cmd: z.string().nullish(),
    tmp_dir: z.string().nullish(),
    tmp_ext: z.string().nullish(),
  });

const NOT_FOUND = Symbol('not found');

function lookup(data: unknown, key: string, delimiter: string): unknown {
  return traverse(data, key, NOT_FOUND, delimiter);
}

/** Salt's content normalisation: each line of each part ends with the OS line separator. */
function normaliseContents(parts: unknown[], newline: boolean): string {
  let out = '';
  for (const part of parts) {
    const text = typeof part === 'string' ? part : String(part);
    for (const line of text.split(/\r\n|\n|\r/).slice(0, text.match(/(\r\n|\n|\r)$/) ? -1 : undefined))
      out += `${line}\n`;
  }
  return newline ? out : out.replace(/\n$/, '').replace(/\r$/, '');
}

type Args = Zod.output<ReturnType<typeof managedArgs>>;

/** The contents asked for, or a failed return. */
function contentsOf(ctx: StateContext, a: Args, ret: Ret): { contents: string | null } | Ret {
  let use: unknown;
  if (a.contents_pillar !== null && a.contents_pillar !== undefined) {
    const keys = Array.isArray(a.contents_pillar) ? a.contents_pillar : [a.contents_pillar];
    const got: unknown[] = [];
    for (const k of keys) {
      const v = lookup(ctx.pillar, k, a.contents_delimiter);
      if (v === NOT_FOUND) return fail(ret, `Pillar ${k} does not exist`);
      got.push(v);
    }
    use = Array.isArray(a.contents_pillar) ? got.join('\n') : got[0];
  } else if (a.contents_grains !== null && a.contents_grains !== undefined) {
    const keys = Array.isArray(a.contents_grains) ? a.contents_grains : [a.contents_grains];
    const got: unknown[] = [];
    for (const k of keys) {
      const v = lookup(ctx.grains, k, a.contents_delimiter);
      if (v === NOT_FOUND) return fail(ret, `Grain ${k} does not exist`);
      got.push(v);
    }
    use = Array.isArray(a.contents_grains) ? got.join('\n') : got[0];
  } else if (a.contents !== undefined && a.contents !== null) use = a.contents;
  else return { contents: null };
  if (!a.allow_empty && !use) {
    const id = a.contents_pillar
      ? `contents_pillar ${a.contents_pillar}`
      : a.contents_grains
        ? `contents_grains ${a.contents_grains}`
        : "'contents'";
    return fail(
      ret,
      `${id} value would result in empty contents. Set allow_empty to True to allow the managed file to be empty.`,
    );
  }
  const parts = Array.isArray(use) ? use : [use];
  if (parts.some((p) => p !== null && typeof p === 'object'))
    return fail(
      ret,
      'Contents specified by contents/contents_pillar/contents_grains is not a string or list of strings, and is not binary data. SLS is likely malformed.',
    );
  return { contents: normaliseContents(parts, a.contents_newline) };
}

/** `file.managed`. */
export const managed = defineState({
  args: managedArgs,
  varkw: true,
  doc: 'Manage a given file: its content from a source, contents or pillar/grains, optionally templated, plus owner and mode.',
  run: async (ctx, a, extra) => {
    const name = expandUser(a.name);
    // Salt's managed builds its return in this key order (changes, comment, name, result)
    const ret = newRetSorted(name);
    if (!name) return fail(ret, 'Destination file name is required');
    const keepMode = typeof a.mode === 'string' && a.mode.toLowerCase() === 'keep';
    const mode = keepMode ? null : normalizeMode(a.mode);
    const source = a.source as SourceSpec | null | undefined;
    const hasContents = [a.contents, a.contents_pillar, a.contents_grains].filter(
      (x) => x !== undefined && x !== null,
    ).length;
    if (source && hasContents > 0)
      return fail(
        ret,
        "'source' cannot be used in combination with 'contents', 'contents_pillar', or 'contents_grains'",
      );
    if (keepMode && hasContents > 0)
      return fail(
        ret,
        "Mode preservation cannot be used in combination with 'contents', 'contents_pillar', or 'contents_grains'",
      );
    if (hasContents > 1)
      return fail(ret, "Only one of 'contents', 'contents_pillar', and 'contents_grains' is permitted");
    let replace = a.replace;
    if (!source && hasContents === 0 && replace) replace = false;
    if ('file_mode' in extra.kwargs)
      ret.warnings = [
        "The 'file_mode' argument will be ignored.  Please use 'mode' instead to set file permissions.",
      ];
    const got = contentsOf(ctx, a, ret);
    if ('name' in got) return got;
    let contents = got.contents;
    if (contents !== null && a.template) {
      try {
        contents = await renderText(ctx, fileClient(ctx), a.template, contents, name, ctx.saltenv, {
          ...((a.defaults as Record<string, unknown>) ?? {}),
          ...((a.context as Record<string, unknown>) ?? {}),
        });
      } catch (err) {
        return fail(ret, (err as Error).message);
      }
    }
    if (!a.create && !(await lexists(name))) {
      ret.comment = `File ${name} is not present and is not set for creation`;
      return ret;
    }
    const uCheck = checkUser(a.user, a.group, ctx.test);
    if (uCheck) return fail(ret, uCheck);
    if (!isAbsolute(name)) return fail(ret, `Specified file ${name} is not an absolute path`);
    if (await isDir(name)) return fail(ret, `Specified target ${name} is a directory`);
    const context = a.context ?? {};
    if (typeof context !== 'object' || Array.isArray(context))
      return fail(ret, 'Context must be formed as a dict');
    if (a.defaults && (typeof a.defaults !== 'object' || Array.isArray(a.defaults)))
      return fail(ret, 'Defaults must be formed as a dict');
    // an existing file whose hash already matches a remote source's source_hash is left alone
    if (contents === null && !a.template && source && !a.skip_verify && replace && (await lexists(name))) {
      try {
        const [src, hash] = await sourceList(ctx, source, a.source_hash ?? '', ctx.saltenv);
        if (src && hash && !['salt', 'file'].includes(schemeOf(src)) && !isAbsolute(src)) {
          const sum = await getSourceSum(ctx, src, hash, a.source_hash_name, ctx.saltenv);
          if (sum.hsum === (await hashFile(name, sum.hash_type))) replace = false;
        }
      } catch {
        // Salt logs the failure and goes on to manage the file
      }
    }
    if (!replace && (await lexists(name))) {
      const [out, perms] = await checkPerms(name, ret, a.user, a.group, mode, a.follow_symlinks, ctx.test);
      if (ctx.test) {
        out.comment =
          mode && perms.lmode !== mode
            ? `File ${name} will be updated with permissions ${mode} from its current state of ${perms.lmode}`
            : `File ${name} not updated`;
      } else if (!Object.keys(out.changes).length && out.result)
        out.comment = `File ${name} exists with proper permissions. No changes made.`;
      return out;
    }
    let single: string | null;
    let sourceHash: string | null;
    try {
      [single, sourceHash] = await sourceList(ctx, source, a.source_hash ?? '', ctx.saltenv);
    } catch (err) {
      return fail(ret, `Unable to manage file: ${(err as Error).message}`);
    }
    const accumulator = managedAccumulator(ctx, name);
    const spec: ManagedSpec = {
      name,
      template: a.template,
      source: single,
      sourceHash,
      sourceHashName: a.source_hash_name,
      user: a.user,
      group: a.group,
      mode,
      saltenv: ctx.saltenv,
      context: accumulator
        ? { ...(context as Record<string, unknown>), accumulator }
        : (context as Record<string, unknown>),
      defaults: (a.defaults as Record<string, unknown>) ?? null,
      skipVerify: a.skip_verify,
      extra: extra.kwargs,
    };
    if (ctx.test) {
      const changes = await checkManagedChanges(ctx, spec, contents, a.follow_symlinks);
      if (Array.isArray(changes)) {
        ret.result = changes[0];
        ret.comment = changes[1];
        return ret;
      }
      ret.changes = changes;
      if (Object.keys(changes).length) {
        ret.result = null;
        ret.comment = `The file ${name} is set to be changed\nNote: No changes made, actual changes may\nbe different due to other states.`;
        if ('diff' in changes && !a.show_changes) changes.diff = '<show_changes=False>';
      } else {
        ret.result = true;
        ret.comment = `The file ${name} is in the correct state`;
      }
      return ret;
    }
    let sfn: string;
    let sum: { hsum?: string; hash_type?: string };
    let comment: string;
    try {
      [sfn, sum, comment] = await getManaged(ctx, spec);
    } catch (err) {
      return fail(ret, `Unable to manage file: ${(err as Error).message}`);
    }
    if (comment && contents === null) return fail(ret, comment);
    const options: ManageOptions = {
      sfn,
      source: single,
      sum,
      user: a.user,
      group: a.group,
      mode,
      saltenv: ctx.saltenv,
      backup: a.backup || '',
      makedirs: a.makedirs,
      showChanges: a.show_changes,
      contents,
      dirMode: a.dir_mode,
      followSymlinks: a.follow_symlinks,
      skipVerify: a.skip_verify,
      test: ctx.test,
    };
    let cleanup = async () => {};
    if (a.check_cmd) {
      const checked = await checkBeforeManage(ctx, name, a.check_cmd, options, {
        tmpDir: a.tmp_dir,
        tmpExt: a.tmp_ext,
      });
      if ('failed' in checked) return checked.failed;
      options.sfn = checked.sfn;
      cleanup = checked.cleanup;
    }
    try {
      return await manageFile(ctx, name, ret, options);
    } catch (err) {
      ret.changes = {};
      return fail(ret, `Unable to manage file: ${(err as Error).message}`);
    } finally {
      await cleanup();
    }
  },
});
