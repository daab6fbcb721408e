// Returns handed to the `local` returner (it prints each one on the process's stdout) by a real
// masterless salt-call and by a real minion running a master's job; and the nacl runner through
// a real master's salt-run. Expected shapes are Salt 3006.18's: salt-call hands returners the
// argument words as typed (its caller's `opts["arg"]`), a minion the job's parsed `arg`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, runCli } from '../../tools/local-cluster.js';
import { localCaller } from '../support/local-call.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-retlocal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('salt-call --return local', () => {
  const call = localCaller(root, 'retlocal');

  it('prints the return with fun_args as the words typed, then the output', async () => {
    const r = await runCli('salt-call', [
      '-c',
      call.etc,
      '--local',
      '--return',
      'local',
      'test.arg',
      'a',
      '1',
      'k=v',
      '{"x": 1}',
    ]);
    expect(r.code).toBe(0);
    const [printed = ''] = r.stdout.split('\n');
    expect(printed).toMatch(/^\{'jid': '\d{20}', 'return': \{'args': /);
    // the jid the function ran under, as Salt's caller hands its returners
    const jid = /^\{'jid': '(\d{20})'/.exec(printed)?.[1];
    expect(printed).toContain(`'__pub_jid': '${jid}'`);
    expect(printed).toContain(
      "'retcode': 0, 'id': 'retlocal', 'fun': 'test.arg', 'fun_args': ['a', '1', 'k=v', '{\"x\": 1}'], 'success': True}",
    );
    // the function itself still got the parsed values
    expect(printed).toContain("'kwargs': {'k': 'v', '__pub_fun': 'test.arg'");
    expect(r.stdout).toContain('\nlocal:\n');
  }, 120_000);

  it('sends nothing to the returner when the call fails its arguments', async () => {
    const r = await runCli('salt-call', ['-c', call.etc, '--local', '--return', 'local', 'test.echo']);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain("'fun_args'");
  }, 120_000);
});

describe('a master job with --return local, and the nacl runner, on a real master', () => {
  const c = new Cluster();
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('m1');
  }, 120_000);
  afterAll(() => c.stop());

  it("the minion's returner gets the job's parsed arguments as fun_args", async () => {
    const r = await c.saltJson(['-t', '60', 'm1', 'test.arg', '1', 'k=v', '--return', 'local']);
    expect(r.data.m1).toMatchObject({ args: [1], kwargs: { k: 'v' } });
    const minion = c.minions.get('m1');
    await minion?.waitFor("'fun': 'test.arg', 'fun_args': [1, {'__kwarg__': True, 'k': 'v'}], ", 60_000);
    // Salt's minion builds it in this order: success, return, retcode, jid, fun, fun_args, user, id;
    // its returner gets the function's own value, so `args` is the tuple `(1,)` (Salt 3006.18)
    expect(minion?.out).toMatch(
      /\{'success': True, 'return': \{'args': \(1,\), 'kwargs': \{'k': 'v', .*\}\}, 'retcode': 0, 'jid': '\d{20}', 'fun': 'test.arg', 'fun_args': \[1, \{'__kwarg__': True, 'k': 'v'\}\], 'user': '\w+', 'id': 'm1'\}\n/,
    );
  }, 120_000);

  it('salt-run nacl.keygen, nacl.enc and nacl.dec round-trip with key files', async () => {
    const sk = join(root, 'runner-key');
    const made = await c.saltRun(['--out', 'json', 'nacl.keygen', `sk_file=${sk}`], 120_000);
    expect(JSON.parse(made.stdout)).toBe(`saved sk_file:${sk}  pk_file: ${sk}.pub`);
    expect(readFileSync(sk, 'utf8')).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const enc = await c.saltRun(['--out', 'json', 'nacl.enc', 'data=s3cr3t', `pk_file=${sk}.pub`], 120_000);
    const sealed = JSON.parse(enc.stdout) as string;
    expect(sealed).toMatch(/^b'[A-Za-z0-9+/=]+'$/);
    const dec = await c.saltRun(
      ['--out', 'json', 'nacl.dec', `data=${sealed.slice(2, -1)}`, `sk_file=${sk}`],
      120_000,
    );
    expect(JSON.parse(dec.stdout)).toBe("b's3cr3t'");
    const again = await c.saltRun(['--out', 'json', 'nacl.keygen', `sk_file=${sk}`], 120_000);
    expect(again.code).toBe(1);
    // Salt's text: a Python traceback whose last line is the class and message
    const text = JSON.parse(again.stdout) as string;
    expect(text).toMatch(/^Exception occurred in runner nacl.keygen: Traceback \(most recent call last\):\n/);
    expect(text.endsWith(`\nException: sk_file:${sk} and pk_file:${sk}.pub already exist.\n`)).toBe(true);
  }, 240_000);
});
