/**
 * Salt's `file.patch` state (`salt/states/file.py` `patch`): a unified diff from `source`
 * (salt://, a URL or a local path) applied to a file or folder with the patch program, after a
 * dry run that tells "applies", "already applied" (the reverse applies) and "would not apply".
 * The patch is fetched and rendered (`template`, `context`, `defaults`) by file.managed, as in Salt. The options Salt manages itself (`-N`, `-r`, `-o`) are refused; `-p`/`--strip` become `strip`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { sourceList } from '../modules/_file-source.js';
import { isDir, lexists } from '../modules/_file-stat.js';
import { shlexSplit } from '../modules/_shlex.js';
import { which } from '../modules/_which.js';
import { renderNested } from '../outputters/nested.js';
import { defineState, type StateContext, type StateReturn } from '../plugins/states/index.js';
import { expandUser, newRet } from './_file-common.js';

interface RunAll {
  retcode: number;
  stdout: string;
  stderr: string;
  pid?: number;
}

const BANNED = ['-N', '--forward', '-r', '--reject-file', '-o', '--output'];

/** The options without `-p`/`--strip` (their number returned), or why they are refused. */
function sanitize(raw: string | string[]): { options: string[]; strip?: number } | string {
  const given = Array.isArray(raw) ? raw.map(String) : shlexSplit(raw);
  const options: string[] = [];
  const banned: string[] = [];
  let strip: number | undefined;
  for (let i = 0; i < given.length; i++) {
    const o = given[i]!;
    const hit = BANNED.find((b) => o.startsWith(b));
    if (hit) banned.push(o);
    if (o.startsWith('-p')) {
      if (!/^-?\d+$/.test(o.slice(2)))
        return "Invalid format for '-p' CLI option. Consider using the 'strip' option for this state.";
      strip = Number(o.slice(2));
    } else if (o.startsWith('--strip')) {
      const v = o.includes('=') ? o.slice(o.lastIndexOf('=') + 1) : given[++i];
      if (v === undefined || !/^-?\d+$/.test(v))
        return "Invalid format for '-strip' CLI option. Consider using the 'strip' option for this state.";
      strip = Number(v);
    } else options.push(o);
  }
  if (banned.length) return `The following CLI options are not allowed: ${banned.join(', ')}`;
  return { options, strip };
}

/** `http(s)://user:pass@host` with the credentials masked (Salt's `redact_http_basic_auth`). */
function redactBasicAuth(url: string): string {
  return url.replace(/^(https?:\/\/)[^/@:]+:[^/@]+@/i, '$1<redacted>@');
}

/** file.managed of `source` into `dest`, never in test mode (what Salt's file.patch does to fetch its patch). */
async function managedCopy(
  ctx: StateContext,
  dest: string,
  source: string | null,
  a: {
    source_hash?: string | null;
    source_hash_name?: string | null;
    skip_verify: boolean;
    template?: string | null;
    context?: unknown;
    defaults?: unknown;
  },
): Promise<StateReturn> {
  if (!ctx.states) throw new Error('no state functions on this minion');
  const kwargs: Record<string, unknown> = { name: dest, source, skip_verify: a.skip_verify };
  for (const k of ['source_hash', 'source_hash_name', 'template', 'context', 'defaults'] as const)
    if (a[k] !== undefined && a[k] !== null) kwargs[k] = a[k];
  return ctx.states.call('file.managed', kwargs, { test: false, saltenv: ctx.saltenv, pillar: ctx.pillar });
}

export const patch = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      source: z.unknown().optional(),
      source_hash: z.string().nullish(),
      source_hash_name: z.string().nullish(),
      skip_verify: z.boolean().default(false),
      template: z.string().nullish(),
      context: z.unknown().optional(),
      defaults: z.unknown().optional(),
      options: z.union([z.string(), z.array(z.string())]).default(''),
      reject_file: z.string().nullish(),
      strip: z.number().int().nullish(),
      saltenv: z.string().nullish(),
    }),
  varkw: true,
  doc: 'Ensure that a patch has been applied to the specified file or directory.',
  run: async (ctx, a, extra) => {
    const ret = newRet(a.name, false);
    if (!which('patch')) return { ...ret, comment: 'patch executable not found on minion' };
    if (!a.name) return { ...ret, comment: 'A file/directory to be patched is required' };
    const name = expandUser(a.name);
    ret.name = name;
    if (!isAbsolute(name)) return { ...ret, comment: `${name} is not an absolute path` };
    if (!(await lexists(name))) return { ...ret, comment: `${name} does not exist` };
    const dir = await isDir(name);
    const warnings = ['hash', 'dry_run_first']
      .filter((k) => k in extra.kwargs)
      .map((k) => `The '${k}' argument is no longer used and has been ignored.`);
    if (warnings.length) ret.warnings = warnings;
    if (a.reject_file != null) {
      const parent = dirname(a.reject_file);
      if (!isAbsolute(parent)) return { ...ret, comment: `'${a.reject_file}' is not an absolute path` };
      if (!(await isDir(parent)))
        return {
          ...ret,
          comment: `Parent directory for reject_file '${a.reject_file}' either does not exist, or is not a directory`,
        };
    }
    const clean = sanitize(a.options);
    if (typeof clean === 'string') return { ...ret, comment: clean };
    const strip = clean.strip ?? a.strip ?? null;
    let source: string | null;
    try {
      [source] = await sourceList(ctx, a.source as never, a.source_hash ?? '', ctx.saltenv);
    } catch (err) {
      return { ...ret, comment: (err as Error).message };
    }
    if (source && a.saltenv && source.startsWith('salt://')) {
      if (source.includes('?saltenv=') && !source.endsWith(`?saltenv=${a.saltenv}`))
        ret.warnings = [
          ...warnings,
          "Ignoring 'saltenv' option in favor of saltenv included in the source URL.",
        ];
      else if (!source.includes('?saltenv=')) source += `?saltenv=${a.saltenv}`;
    }
    const tmp = await mkdtemp(join(tmpdir(), 'tsalt-patch-'));
    try {
      // as Salt: the patch is fetched (and rendered with `template`) by file.managed, run outside
      // test mode into an empty temporary file; under test=True a failed fetch leaves it empty
      const patchFile = join(tmp, 'patch');
      await writeFile(patchFile, '', { mode: 0o600 });
      let fetched: StateReturn;
      try {
        fetched = await managedCopy(ctx, patchFile, source, a);
      } catch (err) {
        const why = (err as Error).message;
        return { ...ret, comment: `Failed to cache patch file ${redactBasicAuth(source ?? '')}: ${why}` };
      }
      if (!ctx.test && !fetched.result) return fetched;
      const run = (file: string, more: string[], dryRun = false) =>
        ctx.call('file.patch', [name, file], {
          options: [...clean.options, ...more],
          dry_run: dryRun,
        }) as Promise<RunAll>;
      const rejects = a.reject_file ?? join(tmp, 'rejects');
      const stripOpt = dir && strip !== null ? [`-p${strip}`] : [];
      const pre = await run(patchFile, ['-N', '-r', rejects, '-o', join(tmp, 'output'), ...stripOpt]);
      if (pre.retcode !== 0) {
        const reverse = await run(rejects, ['-R', '-f'], true);
        if (pre.retcode === 2 && pre.stderr) return { ...ret, comment: pre.stderr };
        if (reverse.retcode === 0) return { ...ret, result: true, comment: 'Patch was already applied' };
        let comment = 'Patch would not apply cleanly, no changes made. Results of dry-run are below.';
        if (a.reject_file == null)
          comment += ' Run state again using the reject_file option to save rejects to a persistent file.';
        comment += `\n\n${renderNested(pre, { color: false }, 14)}`;
        return { ...ret, comment };
      }
      if (ctx.test)
        return { ...ret, result: null, comment: 'The patch would be applied', changes: { ...pre } };
      const done = await run(patchFile, stripOpt);
      ret.changes = { ...done };
      if (done.retcode === 0) return { ...ret, result: true, comment: 'Patch successfully applied' };
      return { ...ret, comment: 'Failed to apply patch' };
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  },
});
