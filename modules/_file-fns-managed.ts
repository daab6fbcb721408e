/**
 * The functions of Salt's `file` module that `file.managed` is built from, callable on their own:
 * source_list, get_managed, check_managed_changes, manage_file. Their arguments are Salt's, in
 * Salt's order, required where Salt's are. `verify_ssl` and `use_etag` are taken as
 * `cp.cache_file` takes them; the SELinux context arguments (`seuser`, `serole`, `setype`,
 * `serange`) are taken and left alone, as Salt does on a host without SELinux.
 * Merged into `modules/file.ts`.
 */
import type { z as Zod } from 'zod';
import { defineFunction, type ExecContext } from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { cli, expand, ownerReq, str } from './_file-args.js';
import { checkManagedChanges, getManaged, manageFile } from './_file-manage.js';
import type { Ret } from './_file-perms.js';
import { type SourceSpec, schemeOf, sourceList } from './_file-source.js';
import { normalizeMode } from './_file-stat.js';

/** source … attrs: the run of required arguments get_managed and check_managed_changes share. */
const sourceAndMeta = (z: typeof Zod) => ({
  source: z.string().nullable(),
  source_hash: z.string().nullable(),
  source_hash_name: z.string().nullable(),
  user: ownerReq(z),
  group: ownerReq(z),
  mode: ownerReq(z),
  attrs: z.string().nullable(),
});

/** Salt's SELinux context arguments (taken, left alone: tsalt sets no SELinux context). */
const selinux = (z: typeof Zod) => ({
  seuser: z.string().nullish(),
  serole: z.string().nullish(),
  setype: z.string().nullish(),
  serange: z.string().nullish(),
});

/**
 * keep_mode: the mode of the source itself, for a `salt://`, `file://` or local source (Salt asks
 * `cp.stat_file`); a source that cannot be read keeps the given mode, with a warning.
 */
async function keptMode(
  ctx: ExecContext,
  source: string | null | undefined,
  saltenv: string,
  mode: unknown,
  localSchemes: readonly string[],
): Promise<unknown> {
  if (!source || !localSchemes.includes(schemeOf(source))) return mode;
  try {
    const got = await ctx.call('cp.stat_file', [source], { saltenv, octal: true });
    return got ?? mode;
  } catch (err) {
    ctx.log.warn(`Unable to stat ${source}: ${(err as Error).message}`);
    return mode;
  }
}

/** The schemes keep_mode reads the source's own mode for (a local path has none). */
const LOCAL = ['salt', 'file', ''] as const;

export const managedFunctions = {
  source_list: defineFunction({
    args: (z) =>
      z.object({
        source: z.unknown(),
        source_hash: z.string().nullable(),
        saltenv: z.string(),
      }),
    doc: `The first source of a list that exists, with its hash: [source, source_hash].${cli("salt '*' file.source_list salt://http/httpd.conf '{hash_type: 'md5', 'hsum': <md5sum>}' base")}`,
    run: async (ctx, a) => {
      let source = a.source;
      if (typeof source === 'string' && source.startsWith('[')) source = JSON.parse(source);
      return sourceList(ctx, source as SourceSpec, a.source_hash ?? '', a.saltenv);
    },
  }),
  get_managed: defineFunction({
    args: (z) =>
      z.object({
        name: str(z),
        template: z.string().nullable(),
        ...sourceAndMeta(z),
        saltenv: z.string(),
        context: z.record(z.string(), z.unknown()).nullable(),
        defaults: z.record(z.string(), z.unknown()).nullable(),
        skip_verify: pyFlag(z, false),
        verify_ssl: pyFlag(z, true),
        use_etag: pyFlag(z, false),
      }),
    varkw: true,
    doc: `Return the managed file data for file.managed: [cached source, source hash, error comment].${cli("salt '*' file.get_managed /etc/httpd/conf.d/httpd.conf jinja salt://http/httpd.conf '{hash_type: 'md5', 'hsum': <md5sum>}' None root root '755' base None None")}`,
    run: (ctx, a, extra) =>
      getManaged(ctx, {
        name: a.name,
        template: a.template,
        source: a.source,
        sourceHash: a.source_hash,
        sourceHashName: a.source_hash_name,
        user: a.user,
        group: a.group,
        mode: a.mode,
        saltenv: a.saltenv,
        context: a.context,
        defaults: a.defaults,
        skipVerify: a.skip_verify,
        extra: extra.kwargs,
      }),
  }),
  check_managed_changes: defineFunction({
    args: (z) =>
      z.object({
        name: str(z),
        ...sourceAndMeta(z),
        template: z.string().nullable(),
        context: z.unknown(),
        defaults: z.unknown(),
        saltenv: z.string(),
        contents: z.string().nullish(),
        skip_verify: pyFlag(z, false),
        keep_mode: pyFlag(z, false),
        ...selinux(z),
        verify_ssl: pyFlag(z, true),
        follow_symlinks: pyFlag(z, false),
      }),
    varkw: true,
    doc: `Return a dictionary of what changes need to be made for a file (or [False, comment]).${cli("salt '*' file.check_managed_changes /etc/httpd/conf.d/httpd.conf salt://http/httpd.conf '{hash_type: 'md5', 'hsum': <md5sum>}' root, root, '755' jinja True None None base")}`,
    run: async (ctx, a) => {
      const blank = (v: unknown) => (v === '' ? null : v);
      const [source] = await sourceList(
        ctx,
        blank(a.source) as string | null,
        a.source_hash ?? '',
        a.saltenv,
      );
      return checkManagedChanges(
        ctx,
        {
          name: expand(a.name),
          template: blank(a.template) as string | null,
          source,
          sourceHash: a.source_hash,
          sourceHashName: a.source_hash_name,
          user: blank(a.user) as string | null,
          group: blank(a.group) as string | null,
          mode: normalizeMode(
            a.keep_mode ? await keptMode(ctx, source, a.saltenv, blank(a.mode), LOCAL) : blank(a.mode),
          ),
          saltenv: a.saltenv,
          context: (blank(a.context) as Record<string, unknown>) ?? null,
          defaults: (blank(a.defaults) as Record<string, unknown>) ?? null,
          skipVerify: a.skip_verify,
        },
        a.contents,
        a.follow_symlinks,
      );
    },
  }),
  manage_file: defineFunction({
    args: (z) =>
      z.object({
        name: str(z),
        sfn: z.string().nullable(),
        ret: z.record(z.string(), z.unknown()).nullable(),
        source: z.string().nullable(),
        source_sum: z.record(z.string(), z.unknown()).nullable(),
        user: ownerReq(z),
        group: ownerReq(z),
        mode: ownerReq(z),
        attrs: z.string().nullable(),
        saltenv: z.string(),
        backup: z.string().nullable(),
        makedirs: pyFlag(z, false),
        template: z.string().nullish(),
        show_changes: pyFlag(z, true),
        contents: z.string().nullish(),
        dir_mode: z.union([z.string(), z.number()]).nullish(),
        follow_symlinks: pyFlag(z, true),
        skip_verify: pyFlag(z, false),
        keep_mode: pyFlag(z, false),
        encoding: z.string().nullish(),
        encoding_errors: z.string().default('strict'),
        ...selinux(z),
        verify_ssl: pyFlag(z, true),
        use_etag: pyFlag(z, false),
      }),
    varkw: true,
    doc: `Checks the destination against what was retrieved with get_managed and makes the appropriate modifications; a state return.${cli("salt '*' file.manage_file /etc/httpd/conf.d/httpd.conf '' '{}' salt://http/httpd.conf '{hash_type: 'md5', 'hsum': <md5sum>}' root root '755' '' base ''")}`,
    run: async (ctx, a) =>
      manageFile(ctx, expand(a.name), (a.ret && Object.keys(a.ret).length ? a.ret : null) as Ret | null, {
        sfn: a.sfn ?? '',
        source: a.source || null,
        sum: (a.source_sum ?? {}) as { hsum?: string; hash_type?: string },
        user: a.user || null,
        group: a.group || null,
        mode: (a.keep_mode ? await keptMode(ctx, a.source, a.saltenv, a.mode, LOCAL) : a.mode) || null,
        saltenv: a.saltenv,
        backup: a.backup ?? '',
        makedirs: a.makedirs,
        showChanges: a.show_changes,
        contents: a.contents ?? null,
        dirMode: a.dir_mode,
        followSymlinks: a.follow_symlinks,
        // a web source's hash is not checked when its ETag decides (use_etag), as Salt's
        skipVerify: a.skip_verify || a.use_etag,
        test: ctx.opts.test === true,
        encoding: a.encoding,
        encodingErrors: a.encoding_errors,
      }),
  }),
};
