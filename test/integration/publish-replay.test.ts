/**
 * Issue 27 item 21: jobs published while minions reconnect (after a publisher or master restart)
 * are replayed to them when they do (`publish_replay_seconds`), and the minion's jid queue keeps
 * each job to one run. Real master, real minions with Salt-like randomised reconnect delays.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalClient } from '../../client/local-client.js';
import { ZmtpSubscriber } from '../../kernel/bus/zmtp/sub-socket.js';
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { loadConfig } from '../../kernel/config/index.js';
import { Crypticle } from '../../kernel/crypt/crypticle.js';
import { unpackNetwork } from '../../kernel/serial/index.js';
import { readAesKey } from '../../master/aes-key.js';
import { Cluster } from '../../tools/local-cluster.js';

const IDS = ['p1', 'p2', 'p3'];
// TSALT_REPLAY_SECONDS=0 measures the loss without replays (the figure before this feature)
const REPLAY_SECONDS = Number(process.env.TSALT_REPLAY_SECONDS ?? 30);

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** How many times minion `id` started job `jid` (its log says so at info level). */
function runs(c: Cluster, id: string, jid: string): number {
  return c.minions
    .get(id)!
    .out.split('\n')
    .filter((l) => l.includes('executing job') && l.includes(jid)).length;
}

/**
 * `runs` once the minion's log line of the run has arrived: the return can reach the job cache
 * before the line reaches the test through the minion's stdout on a loaded machine.
 */
async function loggedRuns(c: Cluster, id: string, jid: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  while (runs(c, id, jid) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return runs(c, id, jid);
}

describe('publish replay after a publisher or master restart (issue 27 item 21)', () => {
  // Salt-like reconnects: a random 1 to 4 s before the SUB socket reconnects
  const c = new Cluster({
    master: { publish_replay_seconds: REPLAY_SECONDS },
    minion: { recon_default: 1000, recon_max: 3000, recon_randomize: true },
  });
  let config: ResolvedMasterConfig;

  beforeAll(async () => {
    await c.startMaster();
    await Promise.all(IDS.map((id) => c.startMinion(id)));
    config = (await loadConfig('master', c.confDir)).config as ResolvedMasterConfig;
    const r = await c.saltJson(['p*', 'test.ping']);
    expect(r.data).toEqual({ p1: true, p2: true, p3: true });
  }, 90_000);
  afterAll(() => c.stop());

  /** Publishes `n` async jobs, one every `gapMs`; resolves with their jids. */
  async function publishBurst(n: number, gapMs: number, tag: string): Promise<string[]> {
    const client = new LocalClient(config);
    const jids: string[] = [];
    for (let i = 0; i < n; i++) {
      jids.push((await client.publish({ tgt: 'p*', fun: 'test.echo', arg: [`${tag}-${i}`] })).jid);
      await new Promise((r) => setTimeout(r, gapMs));
    }
    return jids;
  }

  /** Waits for every minion's return of every jid (or the deadline); counts them and the runs. */
  async function outcome(jids: string[], timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    const { def, ctx } = await c.jobCache();
    let returned = 0;
    for (;;) {
      returned = 0;
      for (const jid of jids) {
        const stored = await def.getJid!(jid, ctx);
        returned += IDS.filter((id) => id in stored).length;
      }
      if (returned === jids.length * IDS.length || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    // a double run would show within a moment of the last return
    await new Promise((r) => setTimeout(r, 1500));
    const extraRuns = jids.flatMap((jid) => IDS.map((id) => runs(c, id, jid))).filter((n) => n > 1).length;
    const result = { expected: jids.length * IDS.length, returned, extraRuns };
    console.log(`publish_replay_seconds=${REPLAY_SECONDS}:`, JSON.stringify(result));
    return result;
  }

  it('jobs published while the publisher restarts reach every minion exactly once', async () => {
    const publisher = childrenOf(c.master!.proc.pid!).find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('children/publisher.js');
      } catch {
        return false;
      }
    });
    expect(publisher).toBeDefined();
    process.kill(publisher!, 'SIGKILL');
    // the new publisher is up within ~100 ms; the minions take 1 to 4 s to reconnect to it (a
    // publish handed off in those 100 ms to the dying process can be lost before any replay)
    await c.master!.waitFor(/process ready process=publisher restarts=1/, 15_000);
    const jids = await publishBurst(20, 150, 'pub');
    expect(await outcome(jids, 20_000)).toEqual({ expected: 60, returned: 60, extraRuns: 0 });
  }, 60_000);

  it('jobs published while minions reconnect to a restarted master reach every minion exactly once', async () => {
    await c.master!.stop();
    await c.startMaster();
    const jids = await publishBurst(20, 150, 'master');
    expect(await outcome(jids, 25_000)).toEqual({ expected: 60, returned: 60, extraRuns: 0 });
  }, 90_000);

  it('a minion restarted with its master does not run a replayed job again (its jid queue is on disk)', async () => {
    const client = new LocalClient(config);
    const { jid } = await client.publish({ tgt: 'p1', fun: 'test.echo', arg: ['once'] });
    const { def, ctx } = await c.jobCache();
    const deadline = Date.now() + 20_000;
    while (!('p1' in (await def.getJid!(jid, ctx))) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await loggedRuns(c, 'p1', jid)).toBe(1);
    // one host rebooted: its master and minion stop and start again within the replay window
    await c.minions.get('p1')!.stop();
    await c.master!.stop();
    await c.startMaster();
    await c.startMinion('p1');
    let r = await c.saltJson(['p1', 'test.ping']);
    for (let tries = 1; tries < 5 && r.data.p1 !== true; tries++) r = await c.saltJson(['p1', 'test.ping']);
    expect(r.data).toEqual({ p1: true });
    // the publish was replayed when p1's new process connected, before the ping; give it a moment
    await new Promise((r) => setTimeout(r, 1500));
    expect(runs(c, 'p1', jid)).toBe(0);
  }, 90_000);

  it('a job a minion returned is not replayed to it, named (tsalt) or known by its address (stock Salt)', async () => {
    const client = new LocalClient(config);
    const { def, ctx } = await c.jobCache();
    // ghost: an accepted minion that never connects, so the jobs below stay incomplete
    const accepted = join(config.pki_dir, 'minions');
    copyFileSync(join(accepted, 'p1'), join(accepted, 'ghost'));
    const target = { tgt: ['p2', 'ghost'], tgtType: 'list', fun: 'test.echo' };
    const j1 = (await client.publish({ ...target, arg: ['answered'] })).jid;
    const deadline = Date.now() + 20_000;
    while (!('p2' in (await def.getJid!(j1, ctx))) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await loggedRuns(c, 'p2', j1)).toBe(1);
    // p2's host restarts with its master; p2 comes back without its jid queue (as a stock Salt
    // minion's, which lives in memory)
    await c.minions.get('p2')!.stop();
    await c.master!.stop();
    rmSync(join(c.root, 'minions', 'p2', 'var', 'cache', 'salt', 'minion', 'jid_queue'));
    await c.startMaster();
    const j2 = (await client.publish({ ...target, arg: ['unanswered'] })).jid;

    // a stock Salt minion's connection: it subscribes to everything and does not name itself
    const aes = new Crypticle((await readAesKey(config.cachedir)).key);
    const seen: string[] = [];
    const sub = new ZmtpSubscriber({
      host: '127.0.0.1',
      port: c.publishPort,
      onMessage: ([frame]) => {
        const envelope = unpackNetwork(frame as Buffer) as { load: Buffer };
        seen.push(String((aes.loads(Buffer.from(envelope.load)) as { jid: string }).jid));
      },
    });
    sub.subscribe('');
    sub.connect();
    await new Promise((r) => setTimeout(r, 1500));
    sub.close();
    // p2 (from 127.0.0.1, like every minion here) returned j1; nobody returned j2
    expect(seen).toContain(j2);
    expect(seen).not.toContain(j1);

    // the tsalt minion names itself
    await c.startMinion('p2');
    let r = await c.saltJson(['p2', 'test.ping']);
    for (let tries = 1; tries < 5 && r.data.p2 !== true; tries++) r = await c.saltJson(['p2', 'test.ping']);
    expect(r.data).toEqual({ p2: true });
    await new Promise((r) => setTimeout(r, 1500));
    expect(runs(c, 'p2', j1)).toBe(0);
    expect(await loggedRuns(c, 'p2', j2)).toBe(1);
  }, 120_000);
});
