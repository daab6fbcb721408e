/**
 * Salt's `ansible.call` (salt/modules/ansiblegate.py): one Ansible module run ad hoc against
 * localhost through the `ansible` program, with an empty temporary inventory, and its output
 * read back the way Salt reads it (the JSON after `localhost | SUCCESS => {`, the text after a
 * `>>` header, or the raw output).
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyRepr, pySplitlines } from '../kernel/python/index.js';
import { pyJson } from '../plugins/renderers/index.js';
import { runProcess } from './_spawn.js';
import { which } from './_which.js';

/** Salt's `DEFAULT_TIMEOUT`: how long an Ansible module may run, in seconds, without `ansible_timeout`. */
const DEFAULT_TIMEOUT = 1200;

/** The environment every Ansible program runs with: the minion's, deprecation warnings off. */
export function ansibleEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.ANSIBLE_DEPRECATION_WARNINGS = '0';
  return env;
}

/**
 * The keywords handed on to the module: the dict in `__pub_arg` (how the `ansible.call` state
 * passes them), else the caller's keywords without Salt's `__pub_*` ones.
 */
function moduleKwargs(kwargs: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const pubArg = kwargs.__pub_arg;
  if (Array.isArray(pubArg)) {
    const found = pubArg.find(
      (x): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x),
    );
    if (found) return found;
  }
  return Object.fromEntries(Object.entries(kwargs).filter(([k]) => !k.startsWith('__pub')));
}

/** Salt's `-a` string: each positional as JSON, each keyword as `key=<JSON>`, space-joined. */
export function moduleArgString(args: readonly unknown[], kwargs: Readonly<Record<string, unknown>>): string {
  const parts = args.map((a) => pyJson(a));
  for (const [k, v] of Object.entries(moduleKwargs(kwargs))) parts.push(`${k}=${pyJson(v)}`);
  return parts.join(' ');
}

/** Salt's reading of a successful run's stdout. */
export function parseCallOutput(stdout: string, stderr: string): Record<string, unknown> {
  const lines = pySplitlines(stdout);
  const first = lines[0] ?? '';
  if (first.endsWith('{')) {
    lines[0] = '{';
    try {
      const parsed: unknown = JSON.parse(lines.join('\n'));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        const out = parsed as Record<string, unknown>;
        delete out.invocation;
        delete out.changed;
        return out;
      }
      return { Error: stderr || 'the output is not a JSON object', Output: stdout };
    } catch (err) {
      return { Error: stderr || (err as Error).message, Output: stdout };
    }
  }
  if (first.endsWith('>>')) return { output: lines.slice(1).join('\n') };
  return { output: stdout };
}

const NAME_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789_';

/** An empty inventory file named as Python's `NamedTemporaryFile` names one (`/tmp/tmpXXXXXXXX`). */
function emptyInventory(): string {
  for (;;) {
    const tail = [...randomBytes(8)].map((b) => NAME_CHARS[b % NAME_CHARS.length]).join('');
    const file = path.join(os.tmpdir(), `tmp${tail}`);
    try {
      writeFileSync(file, '', { mode: 0o600, flag: 'wx' });
      return file;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/** Runs Ansible module `module` on localhost; Salt's return for it. */
export async function callAnsible(
  ctx: ExecContext,
  module: string,
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const ansible = which('ansible');
  if (!ansible) throw new SALT_ERR_EXEC_COMMAND("The 'ansible' binary was not found.");
  const inventory = emptyInventory();
  const argv = [
    ansible,
    'localhost',
    '--limit',
    '127.0.0.1',
    '-m',
    module,
    '-a',
    moduleArgString(args, kwargs),
    '-i',
    inventory,
  ];
  const timeout = Number(ctx.opts.ansible_timeout ?? DEFAULT_TIMEOUT);
  ctx.log.debug({ module }, 'calling ansible module');
  try {
    const res = await runProcess({
      argv,
      cwd: process.cwd(),
      env: ansibleEnv(),
      stdin: null,
      timeoutMs: timeout * 1000,
      signal: ctx.signal,
    });
    const stdout = res.stdout.toString('utf8');
    const stderr = res.stderr.toString('utf8');
    if (res.timedOut)
      throw new SALT_ERR_EXEC_COMMAND(`Command '${pyRepr(argv)}' timed out after ${timeout} seconds`);
    if (res.returncode !== 0) {
      const code = res.returncode ?? 1;
      const out: Record<string, unknown> = {
        Exitcode: code,
        Error: stderr || `Command '${pyRepr(argv)}' returned non-zero exit status ${code}.`,
      };
      if (stdout) out['Given JSON output'] = stdout;
      return out;
    }
    return parseCallOutput(stdout, stderr);
  } finally {
    rmSync(inventory, { force: true });
  }
}
