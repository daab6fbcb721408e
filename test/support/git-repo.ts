/**
 * Real git repositories for tests: `gitRepo(dir)` runs `git init -b master` with a throwaway
 * identity, and its `commit(files)` writes the files and commits them on the current HEAD.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface GitRepo {
  readonly dir: string;
  readonly url: string;
  /** Runs git in the repository; returns its trimmed stdout. */
  git(...args: string[]): string;
  /** Writes `files` (path → text) and commits them; returns the commit id. */
  commit(files: Record<string, string>, message?: string): string;
}

const identity = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
};

export function gitRepo(dir: string): GitRepo {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, env: { ...process.env, ...identity }, stdio: 'pipe' })
      .toString('utf8')
      .trim();
  git('init', '-q', '-b', 'master');
  return {
    dir,
    url: `file://${dir}`,
    git,
    commit(files, message = 'change') {
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, rel)), { recursive: true });
        writeFileSync(join(dir, rel), text);
      }
      git('add', '-A');
      git('commit', '-qm', message);
      return git('rev-parse', 'HEAD');
    },
  };
}
