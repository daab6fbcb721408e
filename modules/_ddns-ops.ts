/**
 * The steps Salt's `ddns` module takes with dnspython, in tsalt: the plain query it makes first
 * (`make_query` + `dns.query.udp`), the TSIG key it picks from the JSON keyring file (`keyfile`,
 * `keyname`, `keyalgorithm`, each from the call or from `ddns.*` config), and the UPDATE it sends.
 */
import { readFileSync } from 'node:fs';
import type { ExecContext } from '../kernel/index.js';
import { pyTruthy } from '../kernel/python/index.js';
import { pyStr } from '../kernel/util.js';
import {
  CLASS_IN,
  encodeMessage,
  type InMessage,
  OPCODE_QUERY,
  OPCODE_UPDATE,
  type OutRecord,
} from './_dns-message.js';
import { type DnsName, nameFromText, nameToText } from './_dns-name.js';
import { canonicalRdataAt, type Rdata, rdataToWire } from './_dns-rdata.js';
import { checkAlgorithm, signMessage, type TsigKey, verifyReply } from './_dns-tsig.js';
import { udpExchange } from './_dns-udp.js';
import { pythonError, pyValueClass } from './_py-exception.js';
import { pyInt } from './_py-int.js';
import { pyJsonLoads } from './_py-json-loads.js';
import { pyOsError } from './_py-oserror.js';
import { isMapping } from './_traverse.js';

/** Where and how long to ask: Salt's `nameserver`, `port` and `timeout` arguments. */
export interface Net {
  nameserver: unknown;
  port: unknown;
  timeout: unknown;
}

const DEFAULT_ALGORITHM = 'HMAC-MD5.SIG-ALG.REG.INT';

function newId(): number {
  return Math.floor(Math.random() * 0x10000);
}

async function exchange(ctx: ExecContext, wire: Buffer, id: number, net: Net): Promise<InMessage> {
  const t = net.timeout;
  if (typeof t === 'string')
    throw pythonError('TypeError', "unsupported operand type(s) for +: 'float' and 'str'");
  const timeout = t === null || t === undefined ? null : Number(t);
  return udpExchange(wire, id, {
    nameserver: pyStr(net.nameserver),
    port: pyInt(net.port),
    timeout,
    signal: ctx.signal,
  });
}

/** `dns.query.udp(dns.message.make_query(fqdn, rdtype), ...)`: a question with RD set, no EDNS. */
export async function query(ctx: ExecContext, fqdn: DnsName, rdtype: number, net: Net): Promise<InMessage> {
  const id = newId();
  const wire = encodeMessage({
    id,
    opcode: OPCODE_QUERY,
    rd: true,
    question: [{ name: fqdn, type: rdtype, cls: CLASS_IN }],
    answer: [],
    authority: [],
    additional: [],
  });
  return exchange(ctx, wire, id, net);
}

/** An answer-section RRset: its records' owner and type, its TTL (the lowest) and its datas. */
export interface AnswerSet {
  type: number;
  ttl: number;
  datas: Buffer[];
}

/** The answer section grouped into RRsets as dnspython groups it, each data in canonical form. */
export function answerSets(reply: InMessage): AnswerSet[] {
  const sets = new Map<string, AnswerSet>();
  for (const r of reply.answer) {
    const key = `${r.name.labels.map((l) => l.toString('latin1').toLowerCase()).join('.')}|${r.type}|${r.cls}`;
    const data = canonicalRdataAt(reply.wire, r.type, r.rdOffset, r.rdLength);
    const set = sets.get(key);
    if (!set) sets.set(key, { type: r.type, ttl: r.ttl, datas: [data] });
    else {
      set.ttl = Math.min(set.ttl, r.ttl);
      if (!set.datas.some((d) => d.equals(data))) set.datas.push(data);
    }
  }
  return [...sets.values()];
}

/** Whether `rdata` is one of `set`'s datas (dnspython compares record datas in canonical form). */
export function holds(set: AnswerSet, rdata: Rdata): boolean {
  const want = rdataToWire(rdata, undefined, true);
  return set.type === rdata.type && set.datas.some((d) => d.equals(want));
}

/** Salt's `_config(name, **kwargs)`: the keyword when given, else the `ddns.<name>` option or None. */
async function option(ctx: ExecContext, name: string, kwargs: Readonly<Record<string, unknown>>) {
  if (name in kwargs) return kwargs[name];
  const v = await ctx.call('config.option', [`ddns.${name}`]);
  return v !== undefined && pyTruthy(v) ? v : null;
}

type KeyringEntry = Buffer | { secret: Buffer; algorithm: DnsName };
type Keyring = { name: DnsName; entry: KeyringEntry }[];

/** Salt's `_get_keyring`: the JSON keyring file read as `dns.tsigkeyring.from_text` reads it. */
function readKeyring(keyfile: unknown): Keyring | null {
  if (!keyfile) return null;
  const path = pyStr(keyfile);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const cls = code === 'ENOENT' ? 'FileNotFoundError' : code === 'EACCES' ? 'PermissionError' : 'OSError';
    throw pythonError(code === 'EISDIR' ? 'IsADirectoryError' : cls, pyOsError(err, path));
  }
  const parsed = pyJsonLoads(text);
  if (!isMapping(parsed))
    throw pythonError('AttributeError', `'${pyValueClass(parsed)}' object has no attribute 'items'`);
  return Object.entries(parsed).map(([name, value]) => {
    const kname = nameFromText(name);
    if (typeof value === 'string') return { name: kname, entry: Buffer.from(value, 'base64') };
    if (!Array.isArray(value) || value.length !== 2)
      throw pythonError('ValueError', 'a keyring entry is a secret or an [algorithm, secret] pair');
    return {
      name: kname,
      entry: { algorithm: nameFromText(pyStr(value[0])), secret: Buffer.from(pyStr(value[1]), 'base64') },
    };
  });
}

/** The TSIG key an update is signed with, or null for none (dnspython's `Update(..., keyring=...)`). */
export async function tsigKey(
  ctx: ExecContext,
  kwargs: Readonly<Record<string, unknown>>,
): Promise<TsigKey | null> {
  const keyring = readKeyring(await option(ctx, 'keyfile', kwargs));
  const keyname = await option(ctx, 'keyname', kwargs);
  const algorithm = (await option(ctx, 'keyalgorithm', kwargs)) || DEFAULT_ALGORITHM;
  if (keyring === null) return null;
  const wanted = keyname === null ? keyring[0]?.name : nameFromText(pyStr(keyname));
  if (!wanted) throw pythonError('StopIteration', '');
  const wantedKey = wanted.labels.map((l) => l.toString('latin1').toLowerCase()).join('.');
  const found = keyring.find(
    (k) => k.name.labels.map((l) => l.toString('latin1').toLowerCase()).join('.') === wantedKey,
  );
  if (!found) throw pythonError('KeyError', `<DNS name ${nameToText(wanted)}>`);
  const key: TsigKey = Buffer.isBuffer(found.entry)
    ? { name: wanted, secret: found.entry, algorithm: nameFromText(pyStr(algorithm)) }
    : { name: wanted, ...found.entry };
  checkAlgorithm(key);
  return key;
}

/** Sends an UPDATE of `zone` with `records` in its update section; answers the reply's rcode. */
export async function sendUpdate(
  ctx: ExecContext,
  zone: DnsName,
  records: OutRecord[],
  key: TsigKey | null,
  net: Net,
): Promise<number> {
  const id = newId();
  const m = {
    id,
    opcode: OPCODE_UPDATE,
    rd: false,
    question: [{ name: zone, type: 6, cls: CLASS_IN }],
    answer: [],
    authority: records,
    additional: [],
  };
  if (key === null) return (await exchange(ctx, encodeMessage(m), id, net)).rcode;
  const [wire, requestMac] = signMessage(m, key);
  const reply = await exchange(ctx, wire, id, net);
  verifyReply(reply, key, requestMac);
  return reply.rcode;
}

/** A record of the update section: `name` (relative to the zone unless absolute) and its data. */
export function updateRecord(
  zone: DnsName,
  name: DnsName,
  type: number,
  cls: number,
  ttl: number,
  data?: Rdata,
) {
  const owner = name.absolute ? name : { labels: [...name.labels, ...zone.labels], absolute: true };
  return { name: owner, type, cls, ttl, rdata: data ? rdataToWire(data, zone) : Buffer.alloc(0) };
}
