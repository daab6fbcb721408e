/**
 * The floor under the auth storm figure (issue 5): the RSA private-key operations Salt's sign-in
 * asks for, per minion, with nothing else, on every core of this machine at once. With master
 * and swarm on the same cores, no storm can finish sooner.
 *
 * Per minion, as tsalt's master and swarm do them (PROTOCOL.md §3 and §5), each with the key in
 * question: the master decrypts the minion's token, signs the `_auth` reply and signs the
 * `_pillar` reply; the minion decrypts the AES key, the echoed token and the session key, and
 * signs its `tok`. The minion's key is parsed and used for the first time in the run, as in a
 * swarm that has just started (OpenSSL's first private operation on a new key costs about twice
 * a later one). The public-key operations around them (a few dozen µs each) are left out.
 * Standalone: `node dist/bench/rsa-floor.js --count 10000 [--threads N]`.
 */
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { generateRsaKeyPair, oaepDecrypt, oaepEncrypt, rsaSign, x931Sign } from '../kernel/crypt/rsa.js';
import { defaultKeysDir, ensureKeys, loadKeys } from '../tools/swarm/key-cache.js';

/** Private-key operations per minion: 3 on the master, 4 on the minion. */
export const PRIVATE_OPS_PER_MINION = 7;

export interface RsaFloorResult {
  count: number;
  threads: number;
  /** Wall seconds for every minion's private-key operations, all threads at once. */
  seconds: number;
  /** Thread time per minion (ms): `seconds × threads / count`. */
  msPerMinion: number;
}

interface Slice {
  keysDir: string;
  from: number;
  count: number;
  masterPem: string;
  /** A token the master decrypts (encrypted to its key). */
  tokenForMaster: Uint8Array;
}

/** What one minion's sign-in signs and decrypts: sizes as on the wire. */
const REPLY_BYTES = Buffer.alloc(1400, 0x61);
const PILLAR_BYTES = Buffer.alloc(340, 0x62);
const SALT = Buffer.from('salt');
const SECRET = Buffer.alloc(76, 0x41);

function runSlice(s: Slice): void {
  const keys = loadKeys(s.keysDir, s.from, s.count);
  // what the master encrypted to each minion, made before the clock starts (public-key work)
  const sealed = keys.map((k) => oaepEncrypt(k.publicPem, SECRET));
  const token = Buffer.from(s.tokenForMaster);
  parentPort?.postMessage('ready');
  parentPort?.once('message', () => {
    for (let i = 0; i < keys.length; i++) {
      const minionPem = (keys[i] as { privatePem: string }).privatePem;
      const box = sealed[i] as Buffer;
      oaepDecrypt(s.masterPem, token);
      rsaSign(s.masterPem, REPLY_BYTES);
      oaepDecrypt(minionPem, box);
      oaepDecrypt(minionPem, box);
      oaepDecrypt(minionPem, box);
      x931Sign(minionPem, SALT);
      rsaSign(s.masterPem, PILLAR_BYTES);
    }
    parentPort?.postMessage('done');
  });
}

/** Runs the floor for `count` swarm minions (their cached keys) over `threads` threads. */
export async function rsaFloor(
  count: number,
  opts: { keysDir?: string; threads?: number } = {},
): Promise<RsaFloorResult> {
  const keysDir = opts.keysDir ?? defaultKeysDir();
  await ensureKeys(keysDir, count);
  const threads = Math.max(1, Math.min(opts.threads ?? availableParallelism(), count));
  const master = generateRsaKeyPair(2048);
  const tokenForMaster = oaepEncrypt(master.publicPem, SECRET);
  const per = Math.ceil(count / threads);
  const workers: Worker[] = [];
  const ready: Promise<void>[] = [];
  for (let t = 0; t < threads; t++) {
    const from = t * per;
    const slice: Slice = {
      keysDir,
      from,
      count: Math.max(0, Math.min(per, count - from)),
      masterPem: master.privatePem,
      tokenForMaster,
    };
    const w = new Worker(new URL(import.meta.url), { workerData: slice });
    workers.push(w);
    ready.push(
      new Promise((resolve, reject) => {
        w.once('message', () => resolve());
        w.once('error', reject);
      }),
    );
  }
  try {
    await Promise.all(ready);
    const done = workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          w.once('message', () => resolve());
          w.once('error', reject);
          w.once('exit', (code) => reject(new Error(`an RSA floor thread exited with code ${code}`)));
        }),
    );
    const t0 = performance.now();
    for (const w of workers) w.postMessage('go');
    await Promise.all(done);
    const seconds = (performance.now() - t0) / 1000;
    return { count, threads, seconds, msPerMinion: (seconds * 1000 * threads) / count };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * CPU ms of the RSA a master does for one sign-in, measured in this thread now (so under the
 * same load as a storm beside it): the 3 private-key operations with a warm master key and the
 * 4 public-key ones (the token, AES key and session key to the minion's key, and the `_pillar`
 * reply's key), with keys already parsed. The mean of `rounds` sign-ins.
 */
export function masterRsaCpuMs(rounds = 100): number {
  const master = generateRsaKeyPair(2048);
  const minion = generateRsaKeyPair(2048);
  const token = oaepEncrypt(master.publicPem, SECRET);
  const one = (): void => {
    oaepDecrypt(master.privatePem, token);
    for (let i = 0; i < 4; i++) oaepEncrypt(minion.publicPem, SECRET);
    rsaSign(master.privatePem, PILLAR_BYTES);
    rsaSign(master.privatePem, PILLAR_BYTES);
  };
  one();
  const start = process.cpuUsage();
  for (let i = 0; i < rounds; i++) one();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / rounds;
}

if (!isMainThread) {
  runSlice(workerData as Slice);
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const arg = (name: string): number | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : undefined;
  };
  const count = arg('--count') ?? 1000;
  const r = await rsaFloor(count, { threads: arg('--threads') });
  process.stdout.write(
    `RSA floor of the auth storm, ${count} minions: ${r.seconds.toFixed(2)} s on ${r.threads} threads ` +
      `(${PRIVATE_OPS_PER_MINION} private-key operations per minion, ${r.msPerMinion.toFixed(2)} ms of thread time each)\n`,
  );
}
