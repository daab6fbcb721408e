import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packIpc } from '../kernel/serial/index.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import { descendants } from './_proc-jobs.js';
import saltutil from './saltutil.js';

const JID = '20240101120000000001';
const OTHER = '20240101120000000002';
const SELF = '20240101120000000099';

let root: string;
let proc: string;
const children: ChildProcess[] = [];

/** A long-running process whose command line mentions salt, as a tsalt job process's does. */
function saltLikeProcess(withChild = true): ChildProcess {
  const child = withChild
    ? spawn('/bin/sh', ['-c', 'sleep 30 & wait', 'tsalt-job'], { stdio: 'ignore' })
    : spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'tsalt-job'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** Dead, or a zombie waiting for a reaper (the container's init may not reap). */
function goneOrZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

const orphans: number[] = [];

/** A process that is neither ours nor a salt one: an orphaned `sleep`, adopted by init. */
function orphanSleep(): number {
  const out = execFileSync('/bin/sh', ['-c', 'sleep 30 >/dev/null 2>&1 & echo $!'], { encoding: 'utf8' });
  const pid = Number(out.trim());
  orphans.push(pid);
  return pid;
}

async function writeJob(
  jid: string,
  pid: number | undefined,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await writeFile(
    path.join(proc, jid),
    packIpc({
      pid,
      fun: 'test.sleep',
      arg: [30],
      tgt: 'm1',
      jid,
      ret: '',
      tgt_type: 'glob',
      user: 'root',
      ...extra,
    }),
  );
}

const ctx = () => fakeCtx({ opts: { cachedir: root }, jid: SELF });

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tsalt-saltutil-'));
  proc = path.join(root, 'proc');
  await mkdir(proc);
});
afterEach(async () => {
  for (const c of children.splice(0)) {
    c.kill('SIGKILL');
  }
  for (const pid of orphans.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  await rm(root, { recursive: true, force: true });
});
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('saltutil.running / find_job / is_running', () => {
  it('lists live jobs and cleans up stale, empty and foreign proc files', async () => {
    const live = saltLikeProcess();
    const dead = spawn('true');
    await exited(dead);
    const foreign = orphanSleep();
    await writeJob(JID, live.pid);
    await writeJob(OTHER, dead.pid);
    await writeJob('20240101120000000003', foreign);
    await writeFile(path.join(proc, '20240101120000000004'), '');
    await writeJob(SELF, live.pid, { fun: 'saltutil.running' });

    const { value } = await invoke(saltutil, 'running', [], ctx());
    expect(value).toEqual([
      {
        pid: live.pid,
        fun: 'test.sleep',
        arg: [30],
        tgt: 'm1',
        jid: JID,
        ret: '',
        tgt_type: 'glob',
        user: 'root',
      },
    ]);
    expect((await readdir(proc)).sort()).toEqual([JID, SELF]);
  });

  it('find_job returns the job data while it runs, {} otherwise', async () => {
    const live = saltLikeProcess();
    await writeJob(JID, live.pid);
    expect((await invoke(saltutil, 'find_job', [JID], ctx())).value).toMatchObject({
      jid: JID,
      pid: live.pid,
    });
    expect((await invoke(saltutil, 'find_job', [OTHER], ctx())).value).toEqual({});
    live.kill('SIGKILL');
    await exited(live);
    expect((await invoke(saltutil, 'find_job', [JID], ctx())).value).toEqual({});
    expect(await readdir(proc)).toEqual([]);
  });

  it('find_job answers {} when there is no proc dir', async () => {
    const c = fakeCtx({ opts: { cachedir: path.join(root, 'nowhere') } });
    expect((await invoke(saltutil, 'find_job', [JID], c)).value).toEqual({});
    expect((await invoke(saltutil, 'running', [], c)).value).toEqual([]);
  });

  it('is_running matches the function name as a glob', async () => {
    const live = saltLikeProcess();
    await writeJob(JID, live.pid);
    expect((await invoke(saltutil, 'is_running', ['test.*'], ctx())).value).toHaveLength(1);
    expect((await invoke(saltutil, 'is_running', ['state.*'], ctx())).value).toEqual([]);
  });
});

describe('saltutil.term_job / kill_job / signal_job', () => {
  it('kill_job kills the job process and its children', async () => {
    const live = saltLikeProcess();
    await writeJob(JID, live.pid);
    let kids: number[] = [];
    for (let i = 0; i < 50 && kids.length === 0; i += 1) {
      kids = descendants(live.pid ?? 0);
      if (kids.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(kids.length).toBeGreaterThan(0);
    const { value } = await invoke(saltutil, 'kill_job', [JID], ctx());
    expect(value).toBe(`Signal 9 sent to job ${JID} at pid ${live.pid}`);
    // Children go first, so the shell may see its child die and exit before its own signal lands.
    await exited(live);
    await new Promise((r) => setTimeout(r, 50));
    for (const k of kids) expect(goneOrZombie(k)).toBe(true);
  });

  it('term_job sends SIGTERM; unknown jobs give an empty string', async () => {
    const live = saltLikeProcess(false);
    await writeJob(JID, live.pid);
    expect((await invoke(saltutil, 'term_job', [JID], ctx())).value).toBe(
      `Signal 15 sent to job ${JID} at pid ${live.pid}`,
    );
    await exited(live);
    expect(live.signalCode).toBe('SIGTERM');
    expect((await invoke(saltutil, 'term_job', [OTHER], ctx())).value).toBe('');
  });

  it('signal_job takes a number or a name, and cleans up when the signal fails', async () => {
    const live = saltLikeProcess();
    await writeJob(JID, live.pid);
    expect((await invoke(saltutil, 'signal_job', [JID, 'SIGCONT'], ctx())).value).toBe(
      `Signal 18 sent to job ${JID} at pid ${live.pid}`,
    );
    expect((await invoke(saltutil, 'signal_job', [JID, 999], ctx())).value).toBe(
      `Job ${JID} was not running and job data has been cleaned up`,
    );
    expect(await readdir(proc)).toEqual([]);
    await expect(invoke(saltutil, 'signal_job', [JID, 'SIGNOPE'], ctx())).rejects.toMatchObject({
      code: 'SALT_ERR_INVOCATION',
    });
  });

  it('refuses to signal a job that runs inside this (the minion) process', async () => {
    await writeJob(JID, process.pid);
    expect((await invoke(saltutil, 'find_job', [JID], ctx())).value).toMatchObject({ pid: process.pid });
    expect((await invoke(saltutil, 'kill_job', [JID], ctx())).value).toBe(
      `Job ${JID} runs inside the minion process and cannot be signalled`,
    );
  });

  it('kill_all_jobs signals every running job', async () => {
    const a = saltLikeProcess();
    const b = saltLikeProcess();
    await writeJob(JID, a.pid);
    await writeJob(OTHER, b.pid);
    const { value } = await invoke(saltutil, 'kill_all_jobs', [], ctx());
    expect(value).toEqual([
      `Signal 9 sent to job ${JID} at pid ${a.pid}`,
      `Signal 9 sent to job ${OTHER} at pid ${b.pid}`,
    ]);
    await Promise.all([exited(a), exited(b)]);
  });
});
