/**
 * The check functions of Salt's `file` module that formulas and states call, merged into
 * `modules/file.ts`: `check_perms` (owner, mode, attributes, SELinux context), `check_managed`,
 * `check_file_meta`, `get_source_sum`, `extract_hash` and `apply_template_on_contents`.
 * Arguments are Salt's, in Salt's order; returns and messages are Salt 3006's.
 */
import { tmpdir } from 'node:os';
import type { z as Zod } from 'zod';
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pyStr } from '../kernel/python/index.js';
import { pyTruthy } from '../kernel/util.js';
import { pyFlag } from './_coerce.js';
import { cli, expand, optStr, ownerReq, str } from './_file-args.js';
import { extractHash, sourceSum } from './_file-hash-extract.js';
import { checkFileMeta, getManaged, type SourceSum } from './_file-manage.js';
import { checkPerms, type PermsStep, type Ret } from './_file-perms.js';
import { fileClient, sourceList } from './_file-source.js';
import { fileStats } from './_file-stat.js';
import { hasEngine, renderText } from './_file-template.js';

/** Salt's SELinux context arguments. */
const selinux = (z: typeof Zod) => ({
  seuser: z.string().nullish(),
  serole: z.string().nullish(),
  setype: z.string().nullish(),
  serange: z.string().nullish(),
});

interface SeWanted {
  seuser?: string | null;
  serole?: string | null;
  setype?: string | null;
  serange?: string | null;
}

const SE_PARTS = [
  ['seuser', 'User', 'user'],
  ['serole', 'Role', 'role'],
  ['setype', 'Type', 'type'],
  ['serange', 'Range', 'range'],
] as const;

/** The four parts of a path's SELinux context, or undefined when it has none (Python's 4-way unpack fails). */
async function seContext(ctx: ExecContext, name: string): Promise<string[] | undefined> {
  const parts = String(await ctx.call('file.get_selinux_context', [name])).split(':');
  return parts.length === 4 ? parts : undefined;
}

/** The file's attributes as `file.lsattr` lists them (`undefined` without lsattr, as Salt's `_cmp_attrs`). */
async function attrsOf(ctx: ExecContext, name: string): Promise<string | undefined> {
  const got = await ctx.call('file.lsattr', [name]);
  if (!got || typeof got !== 'object') return undefined;
  const list = (got as Record<string, unknown>)[name];
  return Array.isArray(list) ? list.join('') : '';
}

/** Salt's `_cmp_attrs`: the attributes to add and to remove (`e` cannot be removed). */
async function cmpAttrs(
  ctx: ExecContext,
  name: string,
  attrs: string,
): Promise<{ added: string; removed: string } | undefined> {
  const have = await attrsOf(ctx, name);
  if (have === undefined) return undefined;
  const want = new Set(attrs);
  const old = new Set(have);
  if (old.has('e')) want.add('e');
  return {
    added: [...want].filter((c) => !old.has(c)).join(''),
    removed: [...old].filter((c) => !want.has(c)).join(''),
  };
}

/** check_perms' attribute step. */
function attrsStep(ctx: ExecContext, name: string, attrs: string, follow: boolean, test: boolean): PermsStep {
  return async (ret, comments, kind) => {
    if (kind.dir || (kind.link && !follow)) return;
    const diff = await cmpAttrs(ctx, name, attrs);
    if (!diff || (!diff.added && !diff.removed)) return;
    const change = { old: (await attrsOf(ctx, name)) ?? '', new: attrs };
    if (!test) {
      const chattr = (operator: string, attributes: string) =>
        ctx.call('file.chattr', [name], { operator, attributes });
      if (diff.added) await chattr('add', diff.added);
      if (diff.removed) await chattr('remove', diff.removed);
      const after = await cmpAttrs(ctx, name, attrs);
      if (after && (after.added || after.removed)) {
        ret.result = false;
        comments.push(`Failed to change attributes to ${attrs}`);
        change.new = (await attrsOf(ctx, name)) ?? '';
      }
    }
    if (change.old !== change.new) ret.changes.attrs = change;
  };
}

/** check_perms' SELinux step. */
function seStep(ctx: ExecContext, name: string, se: SeWanted, test: boolean): PermsStep {
  return async (ret, comments) => {
    if (!SE_PARTS.some(([k]) => se[k])) return;
    const cur = await seContext(ctx, name);
    if (!cur) {
      ctx.log.error('Unable to get current selinux attributes');
      ret.result = false;
      comments.push('Failed to get selinux attributes');
      return;
    }
    const asked = SE_PARTS.map(([k], i) => (se[k] && se[k] !== cur[i] ? se[k] : null));
    if (!asked.some(Boolean)) return;
    const describe = (vals: ReadonlyArray<string | null | undefined>) =>
      SE_PARTS.map(([, label], i) => (asked[i] ? `${label}: ${vals[i]} ` : ''))
        .join('')
        .trim();
    const change = { Old: describe(cur), New: describe(asked) };
    if (test) {
      comments.splice(0, comments.length, `File ${name} selinux context to be updated`);
      ret.result = null;
      ret.changes.selinux = change;
      return;
    }
    const [user, role, type, range] = asked;
    const got = await ctx.call('file.set_selinux_context', [name], {
      user,
      role,
      type: type ?? (user || role || range ? cur[2] : null),
      range,
      persist: true,
    });
    const now = String(got).split(':');
    if (now.length !== 4) {
      ret.result = false;
      comments.push('Failed to set selinux attributes');
      return;
    }
    comments.push(`The file ${name} is set to be changed`);
    SE_PARTS.forEach(([k], i) => {
      if (asked[i] && now[i] !== asked[i]) {
        comments.push(`Unable to update ${k} context`);
        ret.result = false;
      }
    });
    ret.changes.selinux = change;
  };
}

/** Salt's `check_file_meta` with the attribute and SELinux checks and `obfuscate_templates`. */
async function fileMeta(
  ctx: ExecContext,
  a: {
    name: string;
    sfn: string | null;
    source: string | null;
    source_sum: SourceSum | null;
    user: string | number | null;
    group: string | number | null;
    mode: string | number | null;
    attrs: string | null | undefined;
    saltenv: string;
    contents?: string | null;
    follow_symlinks: boolean;
  } & SeWanted,
): Promise<Record<string, unknown>> {
  const changes = await checkFileMeta(
    ctx,
    a.name,
    a.sfn ?? '',
    a.source,
    a.source_sum ?? {},
    a.user,
    a.group,
    a.mode,
    a.saltenv,
    a.contents,
    a.follow_symlinks,
  );
  if ('newfile' in changes) return changes;
  if (changes.diff && pyTruthy(await ctx.call('config.option', ['obfuscate_templates'])))
    changes.diff = '<Obfuscated Template>';
  if (a.attrs) {
    const diff = await cmpAttrs(ctx, a.name, a.attrs);
    if (diff && (diff.added || diff.removed)) changes.attrs = a.attrs;
  }
  if (SE_PARTS.some(([k]) => a[k])) {
    const cur = await seContext(ctx, a.name);
    // Salt's check_file_meta fails here on a path without a context (it reads a ValueError's strerror)
    if (!cur) throw new SALT_ERR_EXEC_COMMAND("'ValueError' object has no attribute 'strerror'");
    SE_PARTS.forEach(([k, , key], i) => {
      if (a[k] && a[k] !== cur[i]) changes.selinux = { [key]: a[k] };
    });
  }
  return changes;
}

const owners = (z: typeof Zod) => ({ user: ownerReq(z), group: ownerReq(z), mode: ownerReq(z) });
const dict = (z: typeof Zod) => z.record(z.string(), z.unknown());

export const checkFunctions = {
  check_perms: defineFunction({
    args: (z) =>
      z.object({
        name: str(z),
        ret: dict(z).nullable(),
        ...owners(z),
        attrs: z.string().nullish(),
        follow_symlinks: pyFlag(z, false),
        ...selinux(z),
      }),
    doc: `Check the permissions on files, modify attributes and chown if needed; returns [ret, perms].${cli("salt '*' file.check_perms /etc/sudoers '{}' root root 400 ai")}`,
    run: async (ctx, a) => {
      const name = expand(a.name);
      if (!(await fileStats(name, null, a.follow_symlinks)))
        throw new SALT_ERR_EXEC_COMMAND(`Path not found: ${name}`);
      const test = ctx.opts.test === true;
      const retIn = a.ret && Object.keys(a.ret).length > 0 ? (a.ret as Ret) : null;
      const attrs = a.attrs ?? null;
      const steps: PermsStep[] = [];
      if (attrs !== null) steps.push(attrsStep(ctx, name, attrs, a.follow_symlinks, test));
      steps.push(seStep(ctx, name, a, test));
      return checkPerms(name, retIn, a.user, a.group, a.mode, a.follow_symlinks, test, async (...args) => {
        for (const step of steps) await step(...args);
      });
    },
  }),
  check_managed: defineFunction({
    args: (z) =>
      z.object({
        name: str(z),
        source: z.unknown(),
        source_hash: z.string().nullable(),
        source_hash_name: z.string().nullable(),
        ...owners(z),
        attrs: z.string().nullable(),
        template: z.string().nullable(),
        context: dict(z).nullable(),
        defaults: dict(z).nullable(),
        saltenv: z.string(),
        contents: z.string().nullish(),
        skip_verify: pyFlag(z, false),
        ...selinux(z),
        follow_symlinks: pyFlag(z, false),
      }),
    varkw: true,
    doc: `Check to see what changes need to be made for a file: [result, comment].${cli("salt '*' file.check_managed /etc/httpd/conf.d/httpd.conf salt://http/httpd.conf '{hash_type: 'md5', 'hsum': <md5sum>}' root, root, '755' jinja True None None base")}`,
    run: async (ctx, a, extra) => {
      const [source, sourceHash] = await sourceList(ctx, a.source as string | null, a.source_hash, a.saltenv);
      let sfn = '';
      let sum: SourceSum = {};
      if (a.contents === null || a.contents === undefined) {
        const [f, h, comment] = await getManaged(ctx, {
          name: a.name,
          template: a.template,
          source,
          sourceHash,
          sourceHashName: a.source_hash_name,
          user: a.user,
          group: a.group,
          mode: a.mode,
          saltenv: a.saltenv,
          context: a.context,
          defaults: a.defaults,
          skipVerify: a.skip_verify,
          extra: extra.kwargs,
        });
        if (comment) return [false, comment];
        [sfn, sum] = [f, h];
      }
      const changes = await fileMeta(ctx, { ...a, sfn, source, source_sum: sum });
      if (a.name.startsWith(process.env.TMPDIR || tmpdir()))
        for (const key of ['user', 'group', 'mode']) delete changes[key];
      if (Object.keys(changes).length === 0) return [true, `The file ${a.name} is in the correct state`];
      ctx.log.info(JSON.stringify(changes));
      const lines = Object.entries(changes).map(([k, v]) => `${k}: ${pyStr(v)}\n`);
      return [null, `The following values are set to be changed:\n${lines.join('')}`];
    },
  }),
  check_file_meta: defineFunction({
    args: (z) =>
      z.object({
        name: str(z),
        sfn: z.string().nullable(),
        source: z.string().nullable(),
        source_sum: dict(z).nullable(),
        ...owners(z),
        attrs: z.string().nullable(),
        saltenv: z.string(),
        contents: z.string().nullish(),
        ...selinux(z),
        verify_ssl: pyFlag(z, true),
        follow_symlinks: pyFlag(z, false),
      }),
    doc: `Check for the changes in the file metadata: a dict of what would change.${cli("salt '*' file.check_file_meta /etc/httpd/conf.d/httpd.conf salt://http/httpd.conf '{hash_type: 'md5', 'hsum': <md5sum>}' root, root, '755' base")}`,
    run: (ctx, a) => fileMeta(ctx, { ...a, source_sum: a.source_sum as SourceSum | null }),
  }),
  get_source_sum: defineFunction({
    args: (z) =>
      z.object({
        file_name: optStr(z).default(''),
        source: optStr(z).default(''),
        source_hash: optStr(z),
        source_hash_name: optStr(z),
        saltenv: z.string().default('base'),
        verify_ssl: pyFlag(z, true),
      }),
    doc: `Obtain the hash and hash type of a source from a hash, a hash expression or a hash file: {hsum, hash_type}.${cli("salt '*' file.get_source_sum /tmp/foo.tar.gz source=http://mydomain.tld/foo.tar.gz source_hash=499ae16dcae71eeb7c3a30c75ea7a1a6")}`,
    run: (ctx, a) => {
      if (a.source_hash === null || a.source_hash === undefined)
        // Salt's os.path.isabs(None) raises TypeError, which salt-call reports as a usage error
        throw new SALT_ERR_INVOCATION('expected str, bytes or os.PathLike object, not NoneType');
      return sourceSum(
        ctx,
        a.file_name ?? '',
        a.source ?? '',
        a.source_hash,
        a.source_hash_name,
        a.saltenv,
        a.verify_ssl,
      );
    },
  }),
  extract_hash: defineFunction({
    args: (z) =>
      z.object({
        hash_fn: str(z),
        hash_type: optStr(z).default('sha256'),
        file_name: optStr(z).default(''),
        source: optStr(z).default(''),
        source_hash_name: optStr(z),
      }),
    doc: `Extract a hash from a hash file, matching source_hash_name, then file_name, then source, else the first hash: {hsum, hash_type} or None.${cli("salt '*' file.extract_hash /path/to/hash/file sha512 /etc/foo")}`,
    run: (ctx, a) =>
      extractHash(a.hash_fn, a.hash_type, a.file_name, a.source, a.source_hash_name, (m) => ctx.log.warn(m)),
  }),
  apply_template_on_contents: defineFunction({
    args: (z) =>
      z.object({
        contents: z.string(),
        template: z.string().nullable(),
        context: dict(z).nullable(),
        defaults: dict(z).nullable(),
        saltenv: z.string(),
      }),
    doc: `Return the contents after applying the templating engine.${cli("salt '*' file.apply_template_on_contents contents='This is a {{ template }} string.' template=jinja \"context={}\" \"defaults={'template': 'cool'}\" saltenv=base")}`,
    run: async (ctx, a) => {
      if (!a.template || !SALT_TEMPLATES.includes(a.template) || !hasEngine(a.template))
        return { result: false, comment: `Specified template format ${pyStr(a.template)} is not supported` };
      const context = { ...(a.defaults ?? {}), ...(a.context ?? {}) };
      return renderText(ctx, fileClient(ctx), a.template, a.contents, '<string>', a.saltenv, context);
    },
  }),
};

/** Salt's `TEMPLATE_REGISTRY`: the engines `apply_template_on_contents` takes. */
const SALT_TEMPLATES = ['jinja', 'mako', 'py', 'wempy', 'genshi', 'cheetah'];
