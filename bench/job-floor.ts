/**
 * The floor under a `test.ping` job's CPU (issue 25's ≥ 400 jobs/s to 10 minions): what Salt's
 * protocol makes every job cost on this machine whatever the code around it, measured alone.
 *
 * - the publish's RSA signature (`sign_pub_messages`, PKCS#1 v1.5 SHA-1 with a 2048-bit key);
 * - the AES-192-CBC + HMAC-SHA256 envelopes (Salt's Crypticle): a publish decrypted by each minion,
 *   a return encrypted by it and decrypted by the master, the master's encrypted reply; each
 *   with a cipher context per message (`aesUs`) and with kept contexts (`aesKeptUs`, what a
 *   minion's and the publisher's Crypticles do), the two measured in alternating rounds;
 * - one message over a loopback TCP connection between two Node processes, both ends' CPU (user +
 *   system: the `write`, the wake-up, `epoll_wait`, the `read`, Node's stream callbacks), from
 *   a ping-pong of a few hundred bytes each way.
 *
 *     node dist/bench/job-floor.js [--minions 10]
 *
 * Prints one JSON line: each item in µs, and the sum for a job to `minions` minions with the
 * number of messages such a job sends between tsalt's processes (see `messagesPerJob`).
 */
import { fork } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import { Crypticle } from '../kernel/crypt/crypticle.js';
import { rsaSign } from '../kernel/crypt/rsa.js';
import { KeptCrypticle } from '../minion/kept-crypticle.js';

function cpuUs(fn: () => void, n: number): number {
  for (let i = 0; i < Math.min(n, 2000); i++) fn();
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / n;
}

/**
 * The messages a `test.ping` to `n` minions sends between processes: the client's publish
 * request and its reply, the hand-off to the publisher, one publish per minion, each minion's
 * return and the master's reply, and the new-job event and one event per return from the event
 * bus (in the request server's process) to the one subscribed client.
 */
export function messagesPerJob(n: number): number {
  return 2 + 1 + n + 2 * n + (1 + n);
}

/** CPU µs per one-way message, both processes, from `rounds` ping-pongs of `bytes` each way. */
async function loopbackMessageUs(rounds: number, bytes: number): Promise<number> {
  if (process.argv.includes('--echo')) throw new Error('echo side');
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const child = fork(process.argv[1] ?? '', ['--echo', String(port)], { stdio: 'inherit' });
  const sock = await new Promise<Socket>((r) => server.once('connection', r));
  const payload = Buffer.alloc(bytes, 7);
  let left = rounds;
  const childCpu = new Promise<number>((r) => child.once('message', (m) => r(Number(m))));
  const t0 = process.cpuUsage();
  await new Promise<void>((done) => {
    sock.on('data', () => {
      if (--left <= 0) done();
      else sock.write(payload);
    });
    sock.write(payload);
  });
  const self = process.cpuUsage(t0);
  sock.end();
  const other = await childCpu;
  server.close();
  return (self.user + self.system + other) / (2 * rounds);
}

/** The echo side: answers every read with as many bytes, reports its CPU when the peer ends. */
function echo(port: number): void {
  const t0 = process.cpuUsage();
  const sock = connect(port, '127.0.0.1');
  sock.on('data', (d: Buffer) => sock.write(d));
  sock.on('end', () => {
    const d = process.cpuUsage(t0);
    process.send?.(d.user + d.system);
    sock.destroy();
    process.disconnect?.();
  });
}

if (process.argv.includes('--echo')) echo(Number(process.argv[process.argv.indexOf('--echo') + 1]));
else if (process.argv[1]?.endsWith('job-floor.js')) {
  const at = process.argv.indexOf('--minions');
  const n = at > 0 ? Number(process.argv[at + 1]) : 10;
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const aes = new Crypticle(Crypticle.generateKeyString());
  const publish = {
    tgt: '*',
    jid: '20261128120000000001',
    fun: 'test.ping',
    arg: [],
    tgt_type: 'glob',
    ret: '',
    user: 'root',
    serial: 1,
  };
  const ret = {
    cmd: '_return',
    id: 'bench0',
    success: true,
    return: true,
    retcode: 0,
    jid: publish.jid,
    fun: 'test.ping',
    fun_args: [],
    _stamp: '2026-11-28T12:00:00.000000',
    nonce: 'a'.repeat(32),
    ts: 1,
    tok: Buffer.alloc(256),
  };
  const kept = new KeptCrypticle(aes.keyString);
  const enc = aes.dumps(publish);
  const encRet = aes.dumps(ret);
  const sign = cpuUs(() => rsaSign(privateKey, enc), 500);
  const ops = (c: Crypticle) => ({
    pubEncrypt: () => c.dumps(publish),
    pubDecrypt: () => c.decrypt(enc),
    retEncrypt: () => c.dumps(ret),
    retDecrypt: () => c.decrypt(encRet),
  });
  type Op = keyof ReturnType<typeof ops>;
  const runs: Record<'fresh' | 'kept', Record<Op, number[]>> = {
    fresh: { pubEncrypt: [], pubDecrypt: [], retEncrypt: [], retDecrypt: [] },
    kept: { pubEncrypt: [], pubDecrypt: [], retEncrypt: [], retDecrypt: [] },
  };
  for (let round = 0; round < 5; round++)
    for (const [kind, c] of [
      ['fresh', aes],
      ['kept', kept],
    ] as const)
      for (const [op, fn] of Object.entries(ops(c)) as [Op, () => unknown][])
        runs[kind][op].push(cpuUs(fn, 5_000));
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const figures = (kind: 'fresh' | 'kept') =>
    Object.fromEntries(Object.entries(runs[kind]).map(([op, xs]) => [op, median(xs)])) as Record<Op, number>;
  const { pubEncrypt, pubDecrypt, retEncrypt, retDecrypt } = figures('fresh');
  const k = figures('kept');
  const message = await loopbackMessageUs(20_000, 400);
  const messages = messagesPerJob(n);
  // per job: one signature and publish encryption; per minion: its publish decrypted, its return
  // encrypted and decrypted, the reply (about a publish's size) encrypted and decrypted
  const crypto = sign + pubEncrypt + n * (pubDecrypt + retEncrypt + retDecrypt + pubEncrypt + pubDecrypt);
  // as tsalt runs it: the publisher and each minion keep contexts; the master's per-minion sessions do not
  const cryptoKept =
    sign + k.pubEncrypt + n * (k.pubDecrypt + k.retEncrypt + retDecrypt + pubEncrypt + k.pubDecrypt);
  const round = (x: number): number => Math.round(x * 10) / 10;
  const ms = (us: number): number => Math.round(us / 10) / 100;
  process.stdout.write(
    `${JSON.stringify({
      minions: n,
      rsaSignUs: round(sign),
      aesUs: {
        pubEncrypt: round(pubEncrypt),
        pubDecrypt: round(pubDecrypt),
        retEncrypt: round(retEncrypt),
        retDecrypt: round(retDecrypt),
      },
      aesKeptUs: Object.fromEntries(Object.entries(k).map(([op, us]) => [op, round(us)])),
      loopbackMessageUs: round(message),
      messagesPerJob: messages,
      floorMsPerJob: { crypto: ms(crypto), cryptoKept: ms(cryptoKept), messages: ms(messages * message) },
    })}\n`,
  );
}
