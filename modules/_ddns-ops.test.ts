import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answerSets, holds, tsigKey } from './_ddns-ops.js';
import { CLASS_IN, decodeMessage, encodeMessage } from './_dns-message.js';
import { nameFromText, nameToText } from './_dns-name.js';
import { rdataFromText, rdataToWire } from './_dns-rdata.js';
import { fakeCtx } from './_fake-ctx.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-ddns-ops-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, body: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof body === 'string' ? body : JSON.stringify(body));
  return p;
};
const SECRET = Buffer.from('0123456789abcdef').toString('base64');
/** A context whose config holds `options` (Salt's `config.option`). */
const ctxWith = (options: Record<string, unknown> = {}) =>
  fakeCtx({
    call: async (fun, args) => {
      if (fun !== 'config.option') throw new Error(`unexpected ${fun}`);
      return options[String(args?.[0])] ?? '';
    },
  });

describe('the TSIG key Salt picks from its keyring file', () => {
  it('takes the first key with the call’s algorithm, HMAC-MD5 by default', async () => {
    const kf = file('one.json', { 'k1.': SECRET, 'k2.': SECRET });
    const key = await tsigKey(ctxWith(), { keyfile: kf });
    expect(key && [nameToText(key.name), nameToText(key.algorithm)]).toEqual([
      'k1.',
      'HMAC-MD5.SIG-ALG.REG.INT.',
    ]);
    const named = await tsigKey(ctxWith(), { keyfile: kf, keyname: 'k2', keyalgorithm: 'hmac-sha256' });
    expect(named && [nameToText(named.name), nameToText(named.algorithm)]).toEqual(['k2.', 'hmac-sha256.']);
    expect(named?.secret.toString()).toBe('0123456789abcdef');
  });

  it('takes an [algorithm, secret] pair’s own algorithm, and the keyfile from ddns.* config', async () => {
    const kf = file('pair.json', { 'k3.': ['hmac-sha512', SECRET] });
    const key = await tsigKey(ctxWith({ 'ddns.keyfile': kf, 'ddns.keyalgorithm': 'hmac-md5' }), {});
    expect(key && [nameToText(key.name), nameToText(key.algorithm)]).toEqual(['k3.', 'hmac-sha512.']);
    expect(await tsigKey(ctxWith(), {})).toBeNull();
    // a keyword given as None wins over the config, as Salt's `_config` has it
    expect(await tsigKey(ctxWith({ 'ddns.keyfile': kf }), { keyfile: null })).toBeNull();
  });

  it('raises what Salt raises for a missing file, an unknown key name or algorithm', async () => {
    const kf = file('k.json', { 'k1.': SECRET });
    await expect(tsigKey(ctxWith(), { keyfile: join(dir, 'none.json') })).rejects.toMatchObject({
      name: 'FileNotFoundError',
      message: `[Errno 2] No such file or directory: '${join(dir, 'none.json')}'`,
    });
    await expect(tsigKey(ctxWith(), { keyfile: kf, keyname: 'other' })).rejects.toMatchObject({
      name: 'KeyError',
      message: '<DNS name other.>',
    });
    await expect(tsigKey(ctxWith(), { keyfile: kf, keyalgorithm: 'hmac-foo' })).rejects.toMatchObject({
      name: 'KeyError',
      message: '<DNS name hmac-foo.>',
    });
    await expect(tsigKey(ctxWith(), { keyfile: file('text.json', '\n  not json') })).rejects.toMatchObject({
      name: 'json.decoder.JSONDecodeError',
      message: 'Expecting value: line 2 column 3 (char 3)',
    });
    await expect(tsigKey(ctxWith(), { keyfile: file('list.json', [1]) })).rejects.toMatchObject({
      name: 'AttributeError',
      message: "'list' object has no attribute 'items'",
    });
  });
});

describe('what the server already holds', () => {
  const name = nameFromText('h.example.test');
  const reply = (records: [type: number, ttl: number, text: string][]) =>
    decodeMessage(
      encodeMessage({
        id: 1,
        opcode: 0,
        rd: true,
        question: [],
        answer: records.map(([type, ttl, text]) => ({
          name,
          type,
          cls: CLASS_IN,
          ttl,
          rdata: rdataToWire(rdataFromText(type, text)),
        })),
        authority: [],
        additional: [],
      }),
    );

  it('groups answers into RRsets with the lowest TTL, comparing datas as dnspython does', () => {
    const sets = answerSets(
      reply([
        [1, 30, '192.0.2.2'],
        [1, 60, '192.0.2.1'],
        [5, 60, 'Target.example.test.'],
      ]),
    );
    expect(sets.map((s) => [s.type, s.ttl, s.datas.length])).toEqual([
      [1, 30, 2],
      [5, 60, 1],
    ]);
    const [a, cname] = sets;
    if (!a || !cname) throw new Error('missing sets');
    expect(holds(a, rdataFromText(1, '192.0.2.2'))).toBe(true);
    expect(holds(a, rdataFromText(1, '192.0.2.3'))).toBe(false);
    // names compare without case; a record of another type never matches
    expect(holds(cname, rdataFromText(5, 'target.EXAMPLE.test.'))).toBe(true);
    expect(holds(cname, rdataFromText(1, '192.0.2.1'))).toBe(false);
  });
});
