/**
 * Salt's `archive` state module (`salt/states/archive.py`): `archive.extracted` makes sure the
 * contents of a tar or zip archive (a local path, `salt://`, or a URL with `source_hash`) are
 * present under a directory. Checks and fetching are here; whether to extract, the extraction
 * and ownership are in `_archive-extract.ts`. rar archives are not supported.
 */
import { existsSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { guessArchiveType } from '../modules/_archive-read.js';
import { getSourceSum } from '../modules/_file-source.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { fileChecksum, readChecksum, updateChecksum } from './_archive-checksum.js';
import { type ExtractPlan, extractAndReport } from './_archive-extract.js';
import { isExecError } from './_git-common.js';

type Args = Record<string, unknown> & { name: string; source: unknown };

const redact = (s: string) => s.replace(/(https?):\/\/.*@/gi, '$1://<redacted>@');
const isAbs = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && path.isAbsolute(v));
const errMsg = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function extracted(ctx: StateContext, a: Args, kw: Record<string, unknown>): Promise<StateReturn> {
  let name = a.name;
  const ret: StateReturn = { name, result: false, changes: {}, comment: '' };
  const warn = (w: string) => {
    const list = (ret.warnings as string[] | undefined) ?? [];
    list.push(w);
    ret.warnings = list;
  };
  if (a.skip_files_list_verify && a.skip_verify)
    return { ...ret, comment: 'Only one of "skip_files_list_verify" and "skip_verify" can be set to True' };
  let keepSource = true;
  if ('keep_source' in kw && 'keep' in kw) {
    warn("Both 'keep_source' and 'keep' were used. Since these both do the same thing, 'keep' was ignored.");
    keepSource = Boolean(kw.keep_source);
  } else if ('keep_source' in kw) keepSource = Boolean(kw.keep_source);
  else if ('keep' in kw) keepSource = Boolean(kw.keep);
  if (!path.isAbsolute(name)) return { ...ret, comment: `${name} is not an absolute path` };
  name = name.replace(/\/+$/, '');
  if (existsSync(name) && statSync(name).isFile())
    return { ...ret, comment: `${name} exists and is not a directory` };
  name += '/';
  const ifMissing = a.if_missing as string | null | undefined;
  if (!isAbs(ifMissing)) return { ...ret, comment: "Value for 'if_missing' is not an absolute path" };
  const enforceOn = a.enforce_ownership_on as string | null | undefined;
  if (!isAbs(enforceOn))
    return { ...ret, comment: "Value for 'enforce_ownership_on' is not an absolute path" };
  if (enforceOn && path.relative(name, enforceOn).startsWith('../'))
    return { ...ret, comment: `Value for 'enforce_ownership_on' must be within ${name}` };
  if (ifMissing && existsSync(ifMissing))
    return { ...ret, result: true, comment: `Path ${ifMissing} exists` };
  const user = (a.user as string | null | undefined) ?? null;
  const group = (a.group as string | null | undefined) ?? null;
  let uid = -1;
  let gid = -1;
  if (user) {
    const u = await ctx.call('file.user_to_uid', [user]);
    if (u === '') return { ...ret, comment: `User ${user} does not exist` };
    uid = Number(u);
  }
  if (group) {
    const g = await ctx.call('file.group_to_gid', [group]);
    if (g === '') return { ...ret, comment: `Group ${group} does not exist` };
    gid = Number(g);
  }
  const sourceHash = (a.source_hash as string | null | undefined) ?? null;
  if (a.source_hash_update && !sourceHash)
    warn("The 'source_hash_update' argument is ignored when 'source_hash' is not also specified.");
  let sourceMatch: string;
  try {
    const got = (await ctx.call('file.source_list', [a.source, sourceHash, ctx.saltenv])) as unknown[];
    sourceMatch = String(got[0] ?? '');
  } catch (err) {
    if (!isExecError(err)) throw err;
    return { ...ret, comment: errMsg(err) };
  }
  if (!sourceMatch) return { ...ret, comment: `Invalid source "${String(a.source)}"` };
  const um = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)([^?#]*)/.exec(sourceMatch);
  const scheme = um ? (um[1] as string).toLowerCase() : '';
  const urlPath = um
    ? `${um[2]}${um[3]}`.replace(/\/+$/, '') || (um[2] as string)
    : sourceMatch.replace(/\/+$/, '');
  const isLocal = scheme === '' || scheme === 'file';
  if (isLocal) {
    sourceMatch = path.resolve(scheme === 'file' ? (um?.[3] ?? '') : urlPath);
    if (!existsSync(sourceMatch) || !statSync(sourceMatch).isFile())
      return { ...ret, comment: `Source file '${redact(sourceMatch)}' does not exist` };
  }
  const valid = ['tar', 'rar', 'zip'];
  let format = a.archive_format ? String(a.archive_format).toLowerCase() : null;
  if (!format) {
    format = guessArchiveType(urlPath);
    if (format === null)
      return {
        ...ret,
        comment: `Could not guess archive_format from the value of the 'source' argument. Please set this archive_format to one of the following: ${valid.join(', ')}`,
      };
  }
  if (!valid.includes(format))
    return {
      ...ret,
      comment: `Invalid archive_format '${format}'. Either set it to a supported value (${valid.join(', ')}) or remove this argument and the archive format will be guessed based on file extension.`,
    };
  const options = a.options === undefined || a.options === null ? null : String(a.options);
  let stripComponents: number | null = null;
  if (options && format === 'tar') {
    const m = /--strip(?:-components)?(?:\s+|=)["']?(\d+)["']?/.exec(options);
    if (m) stripComponents = Number(m[1]);
  }
  let useCmdUnzip = a.use_cmd_unzip as boolean | null | undefined;
  const password = a.password;
  if (format === 'zip') {
    if (options) {
      if (useCmdUnzip === undefined || useCmdUnzip === null) useCmdUnzip = true;
      else if (!useCmdUnzip)
        return {
          ...ret,
          comment:
            "'use_cmd_unzip' cannot be set to False if CLI options are being specified (via the 'options' argument). Either remove 'use_cmd_unzip', or set it to True.",
        };
    }
    if (password) {
      if (useCmdUnzip === undefined || useCmdUnzip === null) useCmdUnzip = false;
      else if (useCmdUnzip)
        warn(
          "Using a password in combination with setting 'use_cmd_unzip' to True is considered insecure. It is recommended to remove the 'use_cmd_unzip' argument (or set it to False) and allow Salt to extract the archive using Python's built-in ZIP file support.",
        );
    }
  } else if (password)
    return { ...ret, comment: "The 'password' argument is only supported for zip archives" };
  if (format === 'rar')
    return {
      ...ret,
      comment: 'archive.unrar function not available, rar/unrar might not be installed on minion',
    };
  let trim: number | false = false;
  if (a.trim_output) {
    if (a.trim_output === true) trim = 100;
    else {
      trim = Number.parseInt(String(a.trim_output), 10);
      if (Number.isNaN(trim))
        return { ...ret, comment: 'Invalid value for trim_output, must be True/False or an integer' };
    }
  }
  let sourceSum: { hsum: string; hash_type: string } | null = null;
  if (sourceHash) {
    try {
      sourceSum = await getSourceSum(
        ctx,
        sourceMatch,
        sourceHash,
        a.source_hash_name as string | null,
        ctx.saltenv,
      );
    } catch (err) {
      if (!isExecError(err)) throw err;
      return { ...ret, comment: errMsg(err) };
    }
  }
  const cachedir = String(ctx.opts.cachedir ?? '/var/cache/salt/minion');
  const hashType = typeof ctx.opts.hash_type === 'string' ? ctx.opts.hash_type : 'sha256';
  if (a.skip_files_list_verify && sourceSum) {
    const cachedNow = isLocal
      ? sourceMatch
      : String((await ctx.call('cp.is_cached', [sourceMatch], { saltenv: ctx.saltenv })) || '');
    const existing = cachedNow ? await readChecksum(cachedir, cachedNow, hashType) : null;
    if (existing && existing.hsum === sourceSum.hsum)
      return {
        ...ret,
        result: ctx.test ? null : true,
        comment: `Archive ${redact(sourceMatch)} existing source sum is the same as the expected one and skip_files_list_verify argument was set to True. Extraction is not needed`,
      };
  }
  let cached: string;
  if (isLocal) cached = sourceMatch;
  else {
    if (ctx.test)
      return {
        ...ret,
        result: null,
        comment: `Archive ${redact(sourceMatch)} would be cached (if necessary) and checked to discover if extraction is needed`,
      };
    // what Salt's file.cached state answers, returned as this state's result
    const cachedRet = (comment: string, changes: StateReturn['changes'] = {}): StateReturn => ({
      changes,
      comment,
      name: sourceMatch,
      result: false,
    });
    const preType = sourceSum?.hash_type ?? hashType;
    const before = String((await ctx.call('cp.is_cached', [sourceMatch], { saltenv: ctx.saltenv })) || '');
    const pre = before ? ((await fileChecksum(before, preType).catch(() => null))?.hsum ?? null) : null;
    const got = await ctx.call('cp.cache_file', [sourceMatch], { saltenv: ctx.saltenv });
    if (typeof got !== 'string' || !got)
      return cachedRet(`Failed to cache ${redact(sourceMatch)}, check minion log for more information`);
    cached = got;
    if (sourceSum && !a.skip_verify) {
      const post = (await fileChecksum(cached, sourceSum.hash_type)).hsum;
      if (post !== sourceSum.hsum)
        return cachedRet(
          `File is cached to ${cached}, but the hash (${post}) does not match the specified hash (${sourceSum.hsum})`,
          pre === post ? {} : { hash: { old: pre, new: post } },
        );
    }
  }
  const existingSum = await readChecksum(cachedir, cached, hashType);
  if (sourceHash && a.source_hash_update && !a.skip_verify) await updateChecksum(cachedir, cached, hashType);
  if (format === 'zip' && !password) {
    try {
      if (await ctx.call('archive.is_encrypted', [cached], { clean: false, saltenv: ctx.saltenv }))
        return {
          ...ret,
          comment: `Archive ${redact(sourceMatch)} is password-protected, but no password was specified. Please set the 'password' argument.`,
        };
    } catch (err) {
      if (!isExecError(err)) throw err;
    }
  }
  const plan: ExtractPlan = {
    ctx,
    ret,
    name,
    sourceMatch,
    cached,
    isLocal,
    format,
    options,
    listOptions: a.list_options ?? null,
    stripComponents,
    ifMissing: ifMissing ?? null,
    enforceOn: enforceOn ?? null,
    user,
    group,
    uid,
    gid,
    sourceSum,
    sourceHashUpdate: Boolean(a.source_hash_update),
    skipVerify: Boolean(a.skip_verify),
    existingSum,
    cachedir,
    hashType,
    enforceToplevel: a.enforce_toplevel !== false,
    clean: Boolean(a.clean),
    cleanParent: Boolean(a.clean_parent),
    force: Boolean(a.force),
    overwrite: Boolean(a.overwrite),
    useCmdUnzip: Boolean(useCmdUnzip),
    password: password ?? null,
    extractPerms: a.extract_perms !== false,
    trim,
    trimGiven: a.trim_output ?? false,
  };
  const out = await extractAndReport(plan);
  if (!isLocal && !keepSource) await rm(cached, { force: true });
  return out;
}

export default defineStateModule({
  name: 'archive',
  doc: 'Extract an archive (tar, zip) into a directory (archive.extracted).',
  functions: {
    extracted: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          source: z.unknown(),
          source_hash: z.string().nullish(),
          source_hash_name: z.string().nullish(),
          source_hash_update: z.boolean().default(false),
          skip_files_list_verify: z.boolean().default(false),
          skip_verify: z.boolean().default(false),
          password: z.unknown().optional(),
          options: z.unknown().optional(),
          list_options: z.unknown().optional(),
          force: z.boolean().default(false),
          overwrite: z.boolean().default(false),
          clean: z.boolean().default(false),
          clean_parent: z.boolean().default(false),
          user: z.string().nullish(),
          group: z.string().nullish(),
          if_missing: z.string().nullish(),
          trim_output: z.unknown().default(false),
          use_cmd_unzip: z.boolean().nullish(),
          extract_perms: z.boolean().default(true),
          enforce_toplevel: z.boolean().default(true),
          enforce_ownership_on: z.string().nullish(),
          archive_format: z.string().nullish(),
          use_etag: z.boolean().default(false),
        }),
      varkw: true,
      doc: 'Ensure that an archive is extracted to a specific directory.',
      run: (ctx, a, extra) => extracted(ctx, a as Args, extra.kwargs),
    }),
  },
});
