/**
 * Salt's `pip.installed` state (`salt/states/pip_state.py`): checks each named package (or
 * requirements file, or editable checkout) against `pip.list` and installs what is missing or
 * does not meet its version specifiers through `pip.install`, with Salt's comments and changes
 * (`<name>==<version>: Installed`). Every keyword past the named ones goes to `pip.install`.
 */
import { pep440Cmp, pep440Compare } from '../modules/_pep440.js';
import { checkPkgVersionFormat, type VersionSpec } from '../modules/_pip-req.js';
import { defineState, type StateContext, type StateReturn } from '../plugins/states/index.js';

type Listing = Record<string, string>;
type PipRun = { retcode?: number; stdout?: string; stderr?: string; comment?: string };

/** Salt's `_fulfills_version_spec`: every specifier holds (an operator it does not know never does). */
function fulfills(version: string, spec: VersionSpec): boolean {
  return spec.every(([oper, want]) => pep440Compare(version, oper, want));
}

/** A key of `list` matching `name` without case (Salt's `CaseInsensitiveDict`). */
function lookup(list: Listing, name: string): string | undefined {
  const key = Object.keys(list).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : list[key];
}

const isEmpty = (v: unknown) =>
  !v || (typeof v === 'object' && Object.keys(v as Record<string, unknown>).length === 0);

const REQUIREMENTS_NOCHANGE = [
  'Requirement already satisfied',
  'Requirement already up-to-date',
  'Requirement not upgraded',
  'Collecting',
  'Cloning',
  'Cleaning up...',
  'Looking in indexes',
];

interface Args {
  name: string;
  pkgs?: unknown;
  pip_bin?: string | null;
  requirements?: unknown;
  bin_env?: string | null;
  use_wheel: boolean;
  no_use_wheel: boolean;
  no_binary?: unknown;
  editable?: unknown;
  index_url?: string | null;
  extra_index_url?: string | null;
  upgrade: boolean;
  force_reinstall: boolean;
  ignore_installed: boolean;
  user?: string | null;
  cwd?: string | null;
  env_vars?: Record<string, unknown> | null;
}

/** Salt's `_check_if_installed`: its comment when `prefix` is there in a version that will do. */
async function alreadyInstalled(
  ctx: StateContext,
  a: Args,
  d: { prefix: string; pkg: string; spec: VersionSpec },
  list: Listing,
): Promise<string | undefined> {
  const { prefix, spec } = d;
  const yes = `Python package ${d.pkg} was already installed`;
  const have = lookup(list, prefix);
  if (a.ignore_installed || have === undefined || a.force_reinstall) return undefined;
  if (!a.upgrade) return spec.length === 0 || fulfills(have, spec) ? yes : undefined;
  const pre = (s: string) => spec.some(([, v]) => v.includes(s));
  const available = (await ctx.call('pip.list_all_versions', [prefix], {
    bin_env: a.bin_env,
    include_alpha: pre('a'),
    include_beta: pre('b'),
    include_rc: pre('rc'),
    user: a.user,
    cwd: a.cwd,
    index_url: a.index_url,
    extra_index_url: a.extra_index_url,
  })) as string[] | null;
  const fitting = (available ?? []).filter((v) => spec.length === 0 || fulfills(v, spec));
  const desired = fitting[fitting.length - 1];
  if (desired === undefined)
    return `Python package ${prefix} was already installed and\nthe available upgrade doesn't fulfills the version requirements`;
  return pep440Cmp(have, desired) === 0 ? yes : undefined;
}

/** The reason pip's version rules out an option, or undefined. */
function optionRefused(a: Args, version: string): string | undefined {
  for (const opt of ['use_wheel', 'no_use_wheel'] as const) {
    if (a[opt] && (pep440Compare(version, '<', '1.4') || pep440Compare(version, '>', '9.0.3')))
      return `The '${opt}' option is only supported in pip between 1.4 and 9.0.3. The version of pip detected was ${version}.`;
  }
  if (a.no_binary && pep440Compare(version, '<', '7.0.0'))
    return `The 'no_binary' option is only supported in pip 7.0.0 and newer. The version of pip detected was ${version}.`;
  return undefined;
}

async function installed(ctx: StateContext, a: Args, extra: Record<string, unknown>): Promise<StateReturn> {
  const binEnv = a.pip_bin && !a.bin_env ? a.pip_bin : a.bin_env;
  const args = { ...a, bin_env: binEnv };
  if (a.pkgs && !Array.isArray(a.pkgs))
    return { name: a.name, result: false, changes: {}, comment: 'pkgs argument must be formatted as a list' };
  const pkgs = (Array.isArray(a.pkgs) && a.pkgs.length > 0 ? a.pkgs : [a.name]).map((p: unknown) =>
    typeof p === 'object' && p !== null ? (Object.entries(p)[0]?.map(String).join(' ') ?? '') : String(p),
  );
  const ret: StateReturn = { name: pkgs.join(';'), result: null, comment: '', changes: {} };
  let version: string;
  try {
    version = String(await ctx.call('pip.version', [binEnv]));
  } catch (err) {
    return { ...ret, result: false, comment: `Error installing '${a.name}': ${(err as Error).message}` };
  }
  const refused = optionRefused(a, version);
  if (refused) return { ...ret, result: false, comment: refused };
  const byFile = Boolean(a.requirements || a.editable);
  const details: Array<{ prefix: string; pkg: string; spec: VersionSpec }> = [];
  if (!byFile) {
    const bad: string[] = [];
    for (const pkg of pkgs) {
      const out = checkPkgVersionFormat(pkg);
      if (out.result) details.push({ prefix: out.prefix, pkg, spec: out.version_spec });
      else bad.push(out.comment);
    }
    if (bad.length > 0) return { ...ret, result: false, comment: bad.join('\n') };
  }
  // user.info answers {} for a user that does not exist (falsy in Salt)
  if (a.user && (await ctx.functions.get('user.info')) && isEmpty(await ctx.call('user.info', [a.user])))
    return { ...ret, result: false, comment: `User ${a.user} does not exist` };
  const targets: Array<{ prefix: string; pkg: string }> = [];
  const already: string[] = [];
  if (byFile) {
    if (ctx.test) {
      const says: string[] = [];
      if (a.requirements) says.push(`Requirements file '${a.requirements}' will be processed.`);
      if (a.editable)
        says.push(
          `Package will be installed in editable mode (i.e. setuptools "develop mode") from ${a.editable}.`,
        );
      return { ...ret, result: null, comment: says.join(' ') };
    }
  } else {
    const listArgs = { bin_env: binEnv, user: a.user, cwd: a.cwd, env_vars: a.env_vars };
    let list: Listing = {};
    try {
      list = (await ctx.call('pip.list', [], listArgs)) as Listing;
    } catch (err) {
      ctx.log.warn({ err: (err as Error).message }, 'pip.list failed before pip.installed');
    }
    for (const d of details) {
      const yes = d.prefix ? await alreadyInstalled(ctx, args, d, list) : undefined;
      if (yes) {
        already.push(yes);
        continue;
      }
      targets.push({ prefix: d.prefix, pkg: d.pkg.replaceAll(',', ';') });
      if (ctx.test) {
        const comment =
          details.length > 1
            ? `Python package(s) set to be installed:${details.map((x) => `\n${x.pkg}`).join('')}`
            : `Python package ${d.pkg} is set to be installed`;
        return { ...ret, result: null, comment };
      }
    }
    if (targets.length === 0) {
      const last = `All specified packages are already installed${a.upgrade ? ' and up-to-date' : ''}`;
      return { ...ret, result: true, comment: [...already, last].join('\n') };
    }
  }
  const { name: _n, pkgs: _p, pip_bin: _b, ...passed } = a;
  const run = (await ctx.call('pip.install', [], {
    ...extra,
    ...passed,
    pkgs: targets.map((t) => t.pkg).join(','),
    bin_env: binEnv,
    saltenv: ctx.saltenv,
    disable_version_check: true,
  })) as PipRun | null;
  const lead = already.length > 0 ? `${already.join('\n')}\n` : '';
  if (run && (run.retcode ?? 1) === 0) {
    const changes: Record<string, unknown> = {};
    if (byFile) {
      const says: string[] = [];
      if (a.requirements) {
        const stdout = run.stdout ?? '';
        if (stdout.split('\n').some((l) => !REQUIREMENTS_NOCHANGE.some((x) => l.trim().startsWith(x))))
          changes.requirements = true;
        says.push(
          changes.requirements
            ? `Successfully processed requirements file ${a.requirements}.`
            : 'Requirements were already installed.',
        );
      }
      if (a.editable) {
        says.push(`Package successfully installed from VCS checkout ${a.editable}.`);
        changes.editable = true;
      }
      return { ...ret, result: true, changes, comment: says.join(' ') };
    }
    const upToDate = new Set<string>();
    for (const line of (run.stdout ?? '').split('\n'))
      if (line.startsWith('Requirement already up-to-date: '))
        upToDate.add((line.split(':', 2)[1] ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '');
    const missing: string[] = [];
    for (const t of targets) {
      if (!t.prefix) {
        changes[`${t.pkg}==???`] = 'Installed';
        continue;
      }
      const found = (await ctx.call('pip.list', [t.prefix], {
        bin_env: binEnv,
        user: a.user,
        cwd: a.cwd,
        env_vars: a.env_vars,
      })) as Listing;
      const ver = lookup(found, t.prefix);
      if (Object.keys(found).length === 0)
        missing.push(
          `There was no error installing package '${t.pkg}' although it does not show when calling 'pip.freeze'.`,
        );
      else if (ver !== undefined && !upToDate.has(t.prefix.toLowerCase()))
        changes[`${t.prefix}==${ver}`] = 'Installed';
    }
    const done = missing.length === 0 ? 'All packages were successfully installed' : missing.join('\n');
    return { ...ret, result: true, changes, comment: lead + done };
  }
  if (run) {
    const error = 'stdout' in run ? `Error: ${run.stdout} ${run.stderr}` : `Error: ${run.comment}`;
    if (byFile) {
      const says: string[] = [];
      if (a.requirements) says.push(`Unable to process requirements file "${a.requirements}"`);
      if (a.editable) says.push(`Unable to install from VCS checkout ${a.editable}.`);
      return { ...ret, result: false, comment: [...says, error].join(' ') };
    }
    const names = targets.map((t) => t.pkg).join(', ');
    return { ...ret, result: false, comment: `${lead}Failed to install packages: ${names}. ${error}` };
  }
  return { ...ret, result: false, comment: 'Could not install package' };
}

export const pipInstalled = defineState({
  args: (z) =>
    z.object({
      name: z.union([z.string(), z.number()]).transform(String),
      pkgs: z.unknown().optional(),
      pip_bin: z.string().nullish(),
      requirements: z.unknown().optional(),
      bin_env: z.string().nullish(),
      use_wheel: z.boolean().default(false),
      no_use_wheel: z.boolean().default(false),
      no_binary: z.unknown().optional(),
      editable: z.unknown().optional(),
      index_url: z.string().nullish(),
      extra_index_url: z.string().nullish(),
      upgrade: z.boolean().default(false),
      force_reinstall: z.boolean().default(false),
      ignore_installed: z.boolean().default(false),
      user: z.string().nullish(),
      cwd: z.string().nullish(),
      env_vars: z.record(z.string(), z.unknown()).nullish(),
    }),
  varkw: true,
  doc: 'Make sure the package is installed (in the virtualenv bin_env or with the pip pip_bin when given); pkgs installs several, requirements a requirements file, editable a VCS checkout. Other keywords (find_links, no_index, extra_args, ...) go to pip.install.\n\nExample:\n\n    pyopenssl:\n      pip.installed:\n        - name: pyOpenSSL\n        - bin_env: /srv/venv',
  run: (ctx, a, extra) => installed(ctx, a, extra.kwargs),
});
