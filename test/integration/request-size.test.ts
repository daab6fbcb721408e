/**
 * `max_request_size` (tsalt's bound on one request, issue 27 item 20): a request over it is
 * read and dropped as it comes, answered with a clear refusal and logged, and the master goes
 * on serving every minion; a big return within it reaches the job store intact. No Salt
 * counterpart (Salt's request server takes any size).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReqClient } from '../../kernel/bus/req-client.js';
import { packNetwork, unpackNetwork } from '../../kernel/serial/index.js';
import { Cluster } from '../../tools/local-cluster.js';

const LIMIT = 4 * 1024 * 1024;
/** A shell command printing `n` bytes of `x` (the job's return is that output). */
const print = (n: number): string => `head -c ${n} /dev/zero | tr '\\0' x`;

describe('max_request_size', () => {
  const c = new Cluster({ master: { max_request_size: LIMIT } });
  let req: ReqClient;

  beforeAll(async () => {
    await c.startMaster();
    await Promise.all([c.startMinion('big'), c.startMinion('other')]);
    req = new ReqClient(`tcp://127.0.0.1:${c.retPort}`, { timeoutMs: 10_000, tries: 1 });
  }, 60_000);
  afterAll(async () => {
    req?.close();
    await c.stop();
  });

  it('a request over the limit gets a clear refusal and a log line; the same connection goes on', async () => {
    const huge = packNetwork({ enc: 'clear', load: { cmd: 'ping', pad: 'y'.repeat(LIMIT) }, version: 3 });
    expect(unpackNetwork(await req.request(huge))).toBe('bad load: request larger than max_request_size');
    await c.master!.waitFor(
      `refused a request of ${huge.length} bytes: larger than max_request_size (${LIMIT})`,
    );
    const ping = packNetwork({ enc: 'clear', load: { cmd: 'ping', n: 1 }, version: 3 });
    expect(unpackNetwork(await req.request(ping))).toEqual({ cmd: 'ping', n: 1 });
  });

  it('a return within the limit arrives intact', async () => {
    const size = 3 * 1024 * 1024;
    const pub = await c.salt(['--async', 'big', 'cmd.run', print(size)]);
    const jid = /(\d{20})/.exec(pub.stdout)![1]!;
    const stored = await c.jobReturns(jid, (s) => 'big' in s, 30_000);
    expect(stored.big?.return).toBe('x'.repeat(size));
  });

  it('a return over the limit is refused, replaced by an error return, and the master serves on', async () => {
    const pub = await c.salt(['--async', 'big', 'cmd.run', print(LIMIT + 1024)]);
    const jid = /(\d{20})/.exec(pub.stdout)![1]!;
    await c.master!.waitFor(/refused a request of \d+ bytes: larger than max_request_size/);
    const r = await c.saltJson(['other', 'test.ping']);
    expect(r.data).toEqual({ other: true });
    const again = await c.saltJson(['big', 'test.echo', 'still here']);
    expect(again.data).toEqual({ big: 'still here' });
    // the minion sends a failed return saying why in its place
    const stored = await c.jobReturns(jid, (s) => 'big' in s, 15_000);
    expect(stored.big).toMatchObject({ success: false, retcode: 1 });
    expect(stored.big?.return).toBe(
      "ERROR: the master refused a _return request: it is larger than the master's max_request_size",
    );
    expect(c.master!.alive).toBe(true);
  });
});
