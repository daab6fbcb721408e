/**
 * The argument pieces the `git` module's functions share (Salt's `user`, `password`,
 * `ignore_retcode`, `output_encoding`, `opts`/`git_opts`, the remote-auth arguments) and the
 * small steps every function takes with them: the run options for `_git-run.ts`, stdout only,
 * output split into lines.
 */
import type { z as Zod } from 'zod';
import type { ExecContext } from '../kernel/index.js';
import { type GitRunOpts, gitRun } from './_git-run.js';

type Z = typeof Zod;
/** The arguments every function takes. */
export type Common = { user?: string | null; ignore_retcode?: boolean; output_encoding?: string | null };

export const common = (z: Z) => ({
  user: z.string().nullish(),
  password: z.string().nullish(),
  ignore_retcode: z.boolean().default(false),
  output_encoding: z.string().nullish(),
});
export const withOpts = (z: Z) => ({ opts: z.unknown().default(''), git_opts: z.unknown().default('') });
/** The arguments of functions that reach a remote: an ssh identity, https credentials, its saltenv. */
export const remoteAuth = (z: Z) => ({
  identity: z.unknown().optional(),
  https_user: z.string().nullish(),
  https_pass: z.string().nullish(),
  saltenv: z.string().default('base'),
});
export const cwdOf = (z: Z) => z.union([z.string(), z.number()]).transform(String);

export const runOpts = (a: Common, cwd: string | null, more: Partial<GitRunOpts> = {}): GitRunOpts => ({
  cwd,
  user: a.user,
  ignoreRetcode: a.ignore_retcode ?? false,
  outputEncoding: a.output_encoding,
  ...more,
});

/** The https credentials of a call, as `_git-run.ts` takes them. */
export const https = (a: { https_user?: string | null; https_pass?: string | null }) => ({
  user: a.https_user,
  pass: a.https_pass,
});

export async function stdout(ctx: ExecContext, command: string[], o: GitRunOpts): Promise<string> {
  return (await gitRun(ctx, command, o)).stdout;
}

export function lines(s: string): string[] {
  return s === '' ? [] : s.split('\n');
}
