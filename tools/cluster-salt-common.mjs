// The set-up the by-hand comparisons with a stock Salt 3006 minion share (cluster-salt-hot.mjs,
// cluster-salt-failover.mjs): two tsalt masters on 127.0.0.2 and 127.0.0.3 with one key pair, a Salt
// minion started from Salt's source (/work/shared/REAL-SALT.md: /tmp/wtcli-salt), salt-call --local
// on that minion's config, and the comparison of a function's returns through each master.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const D = new URL('../dist/tools', import.meta.url).pathname;
export const { Cluster } = await import(`${D}/local-cluster.js`);
export const A = '127.0.0.2';
export const B = '127.0.0.3';
const PY = { ...process.env, PYTHONPATH: '/tmp/wtcli-salt/src:/tmp/wtcli-salt/shim' };
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A scratch folder under /tmp named for the script. */
export const workDir = (name) => mkdtempSync(`/tmp/tsalt-salt-${name}-`);

/** Masters A and B (configs `cfgA`, `cfgB`) on the same ports, B with A's key pair; both started. */
export async function twoMasters(cfgA, cfgB) {
  const a = new Cluster({ master: cfgA });
  await a.writeMasterConfig();
  const b = new Cluster({ master: cfgB });
  b.publishPort = a.publishPort;
  b.retPort = a.retPort;
  await a.startMaster();
  const pb = join(b.root, 'etc/salt/pki/master');
  mkdirSync(pb, { recursive: true });
  for (const f of ['master.pem', 'master.pub'])
    copyFileSync(join(a.root, 'etc/salt/pki/master', f), join(pb, f));
  await b.startMaster();
  return { a, b };
}

/** A Salt minion with config `lines` in `dir`: `{ py, out(), until(what, f, ms) }`. */
export function saltMinion(dir, lines) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'minion'), `${lines.join('\n')}\n`);
  const py = spawn('/usr/bin/python3', ['/tmp/wtcli-salt/src/scripts/salt-minion', '-c', dir, '-l', 'info'], {
    env: PY,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  py.stdout.on('data', (d) => (out += d));
  py.stderr.on('data', (d) => (out += d));
  const until = async (what, f, ms = 120000) => {
    const end = Date.now() + ms;
    for (;;) {
      if (await f().catch(() => false)) return;
      if (Date.now() > end) throw new Error(`${what}\n${out.slice(-3000)}`);
      await sleep(300);
    }
  };
  return { py, out: () => out, until };
}

/** `salt-call --local` of `f` (a function and its arguments) on the Salt minion's config `dir`. */
export function localCall(dir, f) {
  const r = spawnSync(
    '/usr/bin/python3',
    ['/tmp/wtcli-salt/src/scripts/salt-call', '-c', dir, '--local', '--out', 'json', ...f],
    { env: PY, encoding: 'utf8' },
  );
  return JSON.parse(r.stdout).local;
}

/** A return as JSON without the `__pub_*` keys a published job adds. */
export const strip = (v) => JSON.stringify(v, (k, x) => (k.startsWith('__pub_') ? undefined : x));

/**
 * Runs each of `fns` on minion `id` through each master of `masters` (`[name, cluster]` pairs) and
 * compares the return with `want(f, name)`; prints the differences; resolves `[same, total]`.
 */
export async function compareReturns(id, masters, fns, want, label) {
  let same = 0;
  let total = 0;
  for (const [name, c] of masters)
    for (const f of fns) {
      const got = (await c.saltJson([id, ...f, '-t', '30'])).data[id];
      const expected = await want(f, name, c);
      if (expected === undefined) continue;
      total++;
      if (strip(got) === strip(expected)) same++;
      else console.log('DIFF', label, name, f.join(' '), JSON.stringify(got), JSON.stringify(expected));
    }
  return [same, total];
}
