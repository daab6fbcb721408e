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

/** `user`, `password`: who runs git (password is Windows-only in Salt and ignored here). */
export const who = (z: Z) => ({ user: z.string().nullish(), password: z.string().nullish() });
/** `ignore_retcode`, `output_encoding`: how a run's result is read. */
export const tail = (z: Z) => ({
  ignore_retcode: z.boolean().default(false),
  output_encoding: z.string().nullish(),
});
/** `user`, `password`, `ignore_retcode`, `output_encoding`, in Salt's usual order. */
export const common = (z: Z) => ({ ...who(z), ...tail(z) });
export const withOpts = (z: Z) => ({ opts: z.unknown().default(''), git_opts: z.unknown().default('') });
/** An ssh identity (a path, a `salt://` file, or a list of them). */
export const identity = (z: Z) => ({ identity: z.unknown().optional() });
/** https credentials for a remote URL. */
export const httpsAuth = (z: Z) => ({ https_user: z.string().nullish(), https_pass: z.string().nullish() });
/** The saltenv `salt://` identities are fetched from. */
export const saltenv = (z: Z) => ({ saltenv: z.string().default('base') });
/** `ignore_retcode`, `saltenv`, `output_encoding`: the order of Salt's clone, fetch, pull, submodule. */
export const tailWithSaltenv = (z: Z) => ({
  ignore_retcode: z.boolean().default(false),
  ...saltenv(z),
  output_encoding: z.string().nullish(),
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
