/**
 * Salt's `minion` execution module (`salt/modules/minion.py`): the keys a master on this machine
 * holds, and killing or restarting this minion.
 *
 * A tsalt job runs in a job process, so `kill` signals the minion's main process (the `pid`
 * grain) and waits for it to go; the job process, left its running jobs, still sends this one's
 * return. `restart` re-runs the minion's own command line (from /proc, the interpreter
 * included) when it was started with `-d`, uses systemd when it runs the machine, and otherwise
 * only kills it, for a supervisor to start again.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { pyFlag, pyInt } from './_coerce.js';

const EX_SOFTWARE = 70;
const EX_TEMPFAIL = 75;

/** The master's key folders, in Salt's order (`salt.key.Key`). */
const KEY_DIRS = ['minions', 'minions_pre', 'minions_rejected', 'minions_denied'];

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' minion.${example}`;

/** Salt's `_is_systemd_system`: Linux booted with systemd. */
const systemdBooted = (ctx: ExecContext) =>
  ctx.grains.kernel === 'Linux' && existsSync('/run/systemd/system');

/** Salt's `kill`: SIGTERM to the minion, then again each second until it is gone. */
async function kill(ctx: ExecContext, timeout: number): Promise<Record<string, unknown>> {
  const ret: Record<string, unknown> = { killed: null, retcode: 1 };
  const comment: string[] = [];
  const pid = ctx.grains.pid;
  if (!pid) {
    comment.push('Unable to find "pid" in grains');
    ret.retcode = EX_SOFTWARE;
  } else if (!(await ctx.functions.get('ps.kill_pid'))) {
    comment.push('Missing command: ps.kill_pid');
    ret.retcode = EX_SOFTWARE;
  } else {
    ret.retcode = (await ctx.call('ps.kill_pid', [pid])) ? 0 : 1;
    if (ret.retcode) comment.push('ps.kill_pid failed');
    else {
      let gone = false;
      for (let i = 0; i < timeout && !gone; i++) {
        await sleep(1000);
        gone = !(await ctx.call('ps.kill_pid', [pid]));
        if (gone) ret.killed = pid;
      }
      if (!gone) {
        comment.push('Timed out waiting for minion to exit');
        ret.retcode = EX_TEMPFAIL;
      }
    }
  }
  if (comment.length > 0) ret.comment = comment;
  return ret;
}

/** The minion process's command line (Salt's `sys.argv`), or [] when it cannot be read. */
async function minionArgv(ctx: ExecContext): Promise<string[]> {
  const raw = await readFile(`/proc/${pyStr(ctx.grains.pid)}/cmdline`, 'utf8').catch(() => '');
  return raw.split('\0').filter((a, i, all) => a !== '' || i < all.length - 1);
}

/** Salt's `_restart_service`: `service.restart salt-minion`, with a systemd-run retry if asked. */
async function restartService(
  ctx: ExecContext,
  scheduleRetry: boolean,
  retryDelay: unknown,
  comment: string[],
): Promise<Record<string, unknown>> {
  const service: Record<string, unknown> = {};
  let retryFailed = false;
  try {
    if (scheduleRetry) {
      const sched: Record<string, unknown> = {};
      service.schedule_retry = sched;
      retryFailed = true;
      const delay = typeof retryDelay === 'number' ? retryDelay : Number(pyStr(retryDelay).trim());
      if (!Number.isInteger(delay) || pyStr(retryDelay).trim() === '')
        throw new SALT_ERR_EXEC_COMMAND(
          `Invalid retry_delay value: ${pyStr(retryDelay)}. Must be a number of seconds.`,
        );
      const out = (await ctx.call('cmd.run_all', [
        [
          'systemd-run',
          `--on-active=${delay}`,
          '/bin/sh',
          '-c',
          'systemctl is-active salt-minion || systemctl start salt-minion',
        ],
      ])) as { retcode: number; stderr: string };
      if (out.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(out.stderr);
      retryFailed = false;
      sched.detail = out.stderr;
      sched.delay = retryDelay;
      comment.push(`Scheduled retry for minion restart in ${pyStr(retryDelay)} seconds`);
    }
    service.result = await ctx.call('service.restart', ['salt-minion'], { no_block: true });
    comment.push('Service restart successful');
    return { service_restart: service, retcode: 0 };
  } catch (err) {
    if ((err as { code?: string }).code !== 'SALT_ERR_EXEC_COMMAND') throw err;
    comment.push(retryFailed ? 'Adding scheduled retry failed' : 'Service restart failed');
    service.result = false;
    service.stderr = (err as Error).message;
    return { service_restart: service, retcode: EX_SOFTWARE };
  }
}

export default defineModule({
  name: 'minion',
  doc: 'Information about the keys of a master on this machine, and killing or restarting this minion.',
  virtual: () => true,
  functions: {
    list: defineFunction({
      pyName: 'list_',
      args: (z) => z.object({}),
      doc: `The accepted, unaccepted, rejected and denied keys of a master on this machine (its pki_dir is the minion's with "minion" read as "master"), as salt-key -L lists them.${cli('list')}`,
      run: async (ctx) => {
        const pki = pyStr(await ctx.call('config.get', ['pki_dir', ''])).replaceAll('minion', 'master');
        const ret: Record<string, string[]> = {};
        for (const dir of KEY_DIRS) {
          const names: string[] = [];
          ret[dir] = names;
          const full = path.join(pki, dir);
          const entries = await readdir(full).catch(() => undefined);
          if (!entries) continue;
          const sorted = entries
            .map((n) => [n.toLowerCase(), n] as const)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([, n]) => n);
          for (const name of sorted) {
            if (name.startsWith('.')) continue;
            if ((await stat(path.join(full, name)).catch(() => undefined))?.isFile()) names.push(name);
          }
        }
        return ret;
      },
    }),
    kill: defineFunction({
      args: (z) => z.object({ timeout: pyInt(z).default(15) }),
      doc: `Kill this minion: SIGTERM to its process (the pid grain), then wait up to timeout seconds (default 15) for it to exit. Returns {killed: pid or None, retcode: 0 on success}, with a comment list when something failed.${cli('kill')}`,
      run: (ctx, a) => kill(ctx, a.timeout),
    }),
    restart: defineFunction({
      args: (z) =>
        z.object({
          systemd: pyFlag(z, true),
          win_service: pyFlag(z, true),
          schedule_retry: pyFlag(z, false),
          retry_delay: z.unknown().default(180),
        }),
      doc: `Restart this minion: with minion_restart_command when it is set; through systemd (service.restart salt-minion) when systemd runs the machine and systemd=True; else kill it and, when it was started with -d, start it again with the same command line. A minion not run as a daemon is only killed, for its supervisor to start. schedule_retry/retry_delay (systemd): start it again after retry_delay seconds if it is still down.${cli('restart')}`,
      run: async (ctx, a) => {
        let shouldKill = true;
        let shouldRestart = true;
        const comment: string[] = [];
        let ret: Record<string, unknown> = { killed: null, restart: {}, service_restart: {}, retcode: 0 };
        let restartCmd: unknown = await ctx.call('config.get', ['minion_restart_command']);
        if (Array.isArray(restartCmd) ? restartCmd.length > 0 : Boolean(restartCmd)) {
          comment.push('Using configuration minion_restart_command:');
          for (const arg of Array.isArray(restartCmd) ? restartCmd : [...pyStr(restartCmd)])
            comment.push(`    ${pyStr(arg)}`);
        } else if (a.systemd && systemdBooted(ctx)) {
          comment.push('Using systemctl to restart salt-minion');
          shouldKill = false;
          shouldRestart = false;
        } else {
          const argv = await minionArgv(ctx);
          restartCmd = '';
          if (argv.includes('-d')) {
            restartCmd = argv;
            comment.push('Restart using process argv:', ...argv.map((arg) => `    ${arg}`));
          } else {
            shouldRestart = false;
            comment.push('Not running in daemon mode - will not restart process after killing');
          }
        }
        if (shouldKill) {
          const killed = await kill(ctx, 15);
          ret = { ...ret, ...killed };
          const said = killed.comment;
          if (Array.isArray(said)) comment.push(...said.map(pyStr));
          if (killed.retcode) {
            comment.push('Kill failed - not restarting');
            shouldRestart = false;
          }
        }
        if (shouldRestart) {
          const run = { ...((await ctx.call('cmd.run_all', [restartCmd], { env: process.env })) as object) };
          const r = run as Record<string, unknown>;
          delete r.pid;
          if (r.retcode) {
            comment.push('Restart failed');
            ret.retcode = r.retcode;
          }
          delete r.retcode;
          ret.restart = r;
        }
        const noCmd = Array.isArray(restartCmd) ? restartCmd.length === 0 : !restartCmd;
        if (noCmd && a.systemd && systemdBooted(ctx))
          ret = { ...ret, ...(await restartService(ctx, a.schedule_retry, a.retry_delay, comment)) };
        if (comment.length > 0) ret.comment = comment;
        return ret;
      },
    }),
  },
});
