/**
 * Salt's `ansible.playbooks` (salt/modules/ansiblegate.py): `ansible-playbook` run through
 * `cmd.run_all` with the JSON stdout callback, its parsed output (or `cmd.run_all`'s dict when
 * the output is not JSON) returned with the program's `retcode`, which the job gets too.
 */
import type { ExecContext } from '../kernel/index.js';
import { pyStr, pyTruthy, RetcodeResult } from '../kernel/util.js';
import { pyJson } from '../plugins/renderers/index.js';

/** `playbooks`' arguments after the playbook, as Salt names them. */
export interface PlaybookOptions {
  rundir?: unknown;
  check?: unknown;
  diff?: unknown;
  extra_vars?: unknown;
  flush_cache?: unknown;
  forks?: unknown;
  inventory?: unknown;
  limit?: unknown;
  list_hosts?: unknown;
  list_tags?: unknown;
  list_tasks?: unknown;
  module_path?: unknown;
  skip_tags?: unknown;
  start_at_task?: unknown;
  syntax_check?: unknown;
  tags?: unknown;
  playbook_kwargs?: unknown;
}

const isDict = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** Salt's command line for `ansible-playbook`, one string (cmd.run_all splits it as a shell would). */
export function playbookCommand(playbook: unknown, o: PlaybookOptions): string {
  const command = ['ansible-playbook', String(playbook)];
  const flag = (on: unknown, text: string) => {
    if (pyTruthy(on)) command.push(text);
  };
  const valued = (v: unknown, name: string) => {
    if (pyTruthy(v)) command.push(`--${name}=${pyStr(v)}`);
  };
  flag(o.check, '--check');
  flag(o.diff, '--diff');
  if (isDict(o.extra_vars)) command.push(`--extra-vars='${pyJson(o.extra_vars)}'`);
  else if (typeof o.extra_vars === 'string' && o.extra_vars.startsWith('@'))
    command.push(`--extra-vars=${o.extra_vars}`);
  flag(o.flush_cache, '--flush-cache');
  valued(o.inventory, 'inventory');
  valued(o.limit, 'limit');
  flag(o.list_hosts, '--list-hosts');
  flag(o.list_tags, '--list-tags');
  flag(o.list_tasks, '--list-tasks');
  valued(o.module_path, 'module-path');
  valued(o.skip_tags, 'skip-tags');
  valued(o.start_at_task, 'start-at-task');
  flag(o.syntax_check, '--syntax-check');
  valued(o.tags, 'tags');
  if (pyTruthy(o.playbook_kwargs) && isDict(o.playbook_kwargs)) {
    for (const [k, v] of Object.entries(o.playbook_kwargs)) {
      const key = k.replaceAll('_', '-');
      if (v === true) command.push(`--${key}`);
      else if (typeof v === 'string') command.push(`--${key}=${v}`);
      else if (isDict(v)) command.push(`--${key}=${pyJson(v)}`);
    }
  }
  command.push(`--forks=${o.forks === undefined ? 5 : pyStr(o.forks)}`);
  return command.join(' ');
}

interface RunAll {
  retcode: number | null;
  stdout: string;
  [k: string]: unknown;
}

/** Runs the playbook; the JSON callback's document (or cmd.run_all's dict) with `retcode` added. */
export async function runPlaybooks(
  ctx: ExecContext,
  playbook: unknown,
  o: PlaybookOptions,
): Promise<RetcodeResult<Record<string, unknown>>> {
  const ret = (await ctx.call('cmd.run_all', [], {
    cmd: playbookCommand(playbook, o),
    env: {
      ANSIBLE_STDOUT_CALLBACK: 'json',
      ANSIBLE_RETRY_FILES_ENABLED: '0',
      ANSIBLE_DEPRECATION_WARNINGS: '0',
    },
    cwd: o.rundir ?? null,
    reset_system_locale: false,
  })) as RunAll;
  ctx.log.debug('Ansible Playbook ran');
  let data: Record<string, unknown> = ret;
  try {
    const parsed: unknown = JSON.parse(ret.stdout);
    // Python keeps any JSON value here and then fails to add `retcode` to a non-dict
    if (isDict(parsed)) data = parsed;
  } catch {
    // not JSON: cmd.run_all's dict is the return
  }
  const retcode = ret.retcode ?? 0;
  data.retcode = ret.retcode;
  return new RetcodeResult(data, retcode);
}
