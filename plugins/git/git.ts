/**
 * Runs the `git` program (gitfs and git_pillar use no libgit2): one command, its output, and a
 * clear error with git's own message when it fails or takes longer than its timeout. Prompts
 * are off, so a remote that asks for credentials fails instead of waiting, unless the caller's
 * `env` (see auth.ts) answers them. Error texts have passwords in URLs masked.
 */
import { spawn } from 'node:child_process';
import { redactUrl } from './redact.js';

export interface GitRun {
  stdout: Buffer;
  stderr: string;
}

export interface GitOptions {
  cwd?: string;
  timeoutMs?: number;
  /** Added to the environment (credentials are passed this way, never in `args`). */
  env?: Readonly<Record<string, string>>;
}

export function git(args: readonly string[], opts: GitOptions = {}): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: opts.cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', LC_ALL: 'C', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8').trim();
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr });
      else {
        const why = signal ? `timed out (${signal})` : `exit code ${code}`;
        const last = redactUrl(stderr.split('\n').filter(Boolean).slice(-2).join(' / '));
        const verb = args.find(
          (a, i) => !a.startsWith('-') && args[i - 1] !== '--git-dir' && args[i - 1] !== '-c',
        );
        reject(new Error(`git ${verb ?? ''} failed, ${why}${last ? `: ${last}` : ''}`));
      }
    });
  });
}

/**
 * `git archive <rev>[:<path>] | tar -x -C <dir>`: the tree of `rev` (or its folder `path`)
 * written out as files, under `prefix/` inside `dir` when a prefix is given.
 */
export function exportTree(
  gitDir: string,
  rev: string,
  dir: string,
  opts: { path?: string; prefix?: string } = {},
): Promise<void> {
  const args = ['--git-dir', gitDir, 'archive', '--format=tar'];
  if (opts.prefix) args.push(`--prefix=${opts.prefix.replace(/\/*$/, '/')}`);
  args.push(opts.path ? `${rev}:${opts.path}` : rev);
  return new Promise((resolve, reject) => {
    const archive = spawn('git', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const tar = spawn('tar', ['-x', '-f', '-', '-C', dir], { stdio: ['pipe', 'ignore', 'pipe'] });
    archive.stdout.pipe(tar.stdin);
    let errText = '';
    archive.stderr.on('data', (c: Buffer) => {
      errText += c.toString();
    });
    tar.stderr.on('data', (c: Buffer) => {
      errText += c.toString();
    });
    let pending = 2;
    let failed = false;
    const done = (code: number | null) => {
      if (code !== 0) failed = true;
      pending -= 1;
      if (pending === 0) {
        if (failed) reject(new Error(`exporting ${rev} failed: ${errText.trim()}`));
        else resolve();
      }
    };
    archive.on('close', done);
    tar.on('close', done);
    archive.on('error', reject);
    tar.on('error', reject);
  });
}
