/**
 * Two listings of Salt's apt `pkg` module, merged into `modules/pkg.ts`: `list_repo_pkgs` (every
 * version apt knows of each package, from `apt-cache dump`, or `apt-cache show` of the names
 * given) and `services_need_restart` (the services `checkrestart`, of Debian's debian-goodies,
 * finds using files that packages replaced).
 */
import { defineFunction, type ExecContext } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { SALT_ERR_CMD_NOT_FOUND } from './_command-not-found.js';
import { callApt } from './_pkg-apt-call.js';
import { which } from './_which.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;

/** Salt's reading of apt-cache's output: `Version:` lines listed under the `Package:` before them. */
export function repoVersions(stdout: string): Record<string, string[]> {
  const ret: Record<string, string[]> = {};
  let pkgName: string | null = null;
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    const m = /^Package: (.+)/.exec(line);
    if (m?.[1] !== undefined && m[1] !== pkgName) {
      pkgName = m[1];
      continue;
    }
    const [first, rest] = line.trim().split(/\s+(.*)/s);
    if (first === 'Version:' && rest !== undefined) {
      const key = pkgName ?? 'null';
      ret[key] = [...(ret[key] ?? []), rest];
    }
  }
  return ret;
}

async function listRepoPkgs(ctx: ExecContext, names: readonly string[]): Promise<Record<string, string[]>> {
  const argv = names.length ? ['apt-cache', 'show', ...names] : ['apt-cache', 'dump'];
  const out = await callApt(ctx, argv);
  return repoVersions(out.stdout);
}

/** The service names of checkrestart's `SERVICE:<name>,...` lines (each once). */
export function restartServices(stdout: string): string[] {
  const services = new Set<string>();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('SERVICE:')) continue;
    const end = line.indexOf(',');
    // Python's line[8:-1] where find() found no comma
    services.add(line.slice(8, end < 0 ? -1 : end));
  }
  return [...services];
}

async function servicesNeedRestart(ctx: ExecContext): Promise<string[]> {
  if (!which('checkrestart'))
    throw new SALT_ERR_CMD_NOT_FOUND(
      "'checkrestart' is needed. It is part of the 'debian-goodies' package which can be installed from official repositories.",
    );
  const stdout = await ctx.call('cmd.run_stdout', [['checkrestart', '--machine', '--package']], {
    python_shell: false,
  });
  return restartServices(pyStr(stdout));
}

export const aptListingFunctions = {
  list_repo_pkgs: defineFunction({
    varargs: true,
    varkw: true,
    doc: `Every version apt can install of each package, newest first: {name: [versions]}; names (or globs apt-cache understands) narrow it.${cli('pkg.list_repo_pkgs bash curl')}`,
    run: (ctx, _a, extra) =>
      listRepoPkgs(
        ctx,
        extra.args.map((a) => pyStr(a)),
      ),
  }),
  services_need_restart: defineFunction({
    varkw: true,
    doc: `The services that use files the package manager has since replaced, which may need a restart (needs checkrestart, from debian-goodies).${cli('pkg.services_need_restart')}`,
    run: (ctx) => servicesNeedRestart(ctx),
  }),
};
