/**
 * What opening a publish costs a swarm minion alone, and with its worker's shared opening
 * (tools/swarm/shared-publish.ts): `count` minions (each its own Crypticle on the master's AES
 * key) take `pubs` `test.ping` publishes, each from its own copy of the frame as its socket
 * would hand it over. CPU µs per minion per publish, one thread, alternating rounds.
 * `node dist/bench/swarm-publish-share.js [--count 2500] [--pubs 40] [--rounds 3]`
 */
import { Crypticle } from '../kernel/crypt/crypticle.js';
import { packNetwork } from '../kernel/serial/index.js';
import { decryptPublish, openEnvelope } from '../minion/publish-decoder.js';
import { acceptSerial, type Serial, SharedPublishes } from '../tools/swarm/shared-publish.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

const count = arg('--count', 2500);
const pubs = arg('--pubs', 40);
const rounds = arg('--rounds', 3);
const key = Crypticle.generateKeyString();
const master = new Crypticle(key);
const job = { tgt: '*', tgt_type: 'glob', fun: 'test.ping', arg: [], ret: '', user: 'root' };
const frames = Array.from({ length: pubs }, (_, i) =>
  packNetwork({
    enc: 'aes',
    load: master.dumps({ ...job, jid: String(20261128130000000001n + BigInt(i)), serial: i + 1 }),
  }),
);

/** CPU µs per minion per publish, and how many publishes were taken (all of them, or it is wrong). */
function run(shared: boolean): { us: number; taken: number } {
  const minions = Array.from({ length: count }, () => ({ aes: new Crypticle(key), last: 0 as Serial }));
  const publishes = new SharedPublishes();
  let taken = 0;
  const t0 = process.cpuUsage();
  for (const frame of frames)
    for (const m of minions) {
      const copy = Buffer.from(frame);
      if (!shared) {
        const env = openEnvelope(copy);
        if (env.ok && decryptPublish(env.enc, m.aes).ok) taken++;
        continue;
      }
      const opened = publishes.open(copy, m.aes);
      const last = acceptSerial(opened.serial, m.last);
      if (last === undefined) continue;
      m.last = last;
      if (opened.ok) taken++;
    }
  const cpu = process.cpuUsage(t0);
  return { us: (cpu.user + cpu.system) / (count * pubs), taken };
}

process.stdout.write(`${count} minions, ${pubs} publishes of ${frames[0]?.length ?? 0} bytes\n`);
for (let r = 0; r < rounds; r++)
  for (const shared of [false, true]) {
    const { us, taken } = run(shared);
    process.stdout.write(
      `${shared ? 'shared' : 'alone '}: ${us.toFixed(2)} µs per minion per publish (${taken}/${count * pubs} taken)\n`,
    );
  }
