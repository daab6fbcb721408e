/**
 * Salt's `ddns` execution module (`salt/modules/ddns.py`): RFC 2136 dynamic DNS updates sent
 * over UDP to `nameserver:port`, signed with a TSIG key when a JSON keyring file is named
 * (`keyfile`, `keyname`, `keyalgorithm`: keywords or `ddns.*` config). Salt does it with
 * dnspython; tsalt encodes the messages itself (modules/_dns-*.ts). `update` and `delete` ask
 * the server first and answer None when there is nothing to do, True when the server took the
 * update, False when it refused it; dnspython's exceptions (timeouts, a rejected key) go
 * through as Salt lets them.
 */
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pyTruthy } from '../kernel/python/index.js';
import { pyStr } from '../kernel/util.js';
import { answerSets, holds, type Net, query, sendUpdate, tsigKey, updateRecord } from './_ddns-ops.js';
import { CLASS_ANY, CLASS_IN, CLASS_NONE } from './_dns-message.js';
import { nameFromText } from './_dns-name.js';
import { rdataFromText, rdtypeFromText, rdtypeToText } from './_dns-rdata.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { pythonError, pyValueClass } from './_py-exception.js';
import { pyInt } from './_py-int.js';

type Kw = Readonly<Record<string, unknown>>;
type Z = typeof import('zod').z;

const TYPE_A = 1;
const TYPE_ANY = 255;

/** Salt's owner text: `name` when it ends in a dot, else `name.zone`. */
function fqdnOf(name: string, zone: unknown): string {
  return name.endsWith('.') ? name : `${name}.${pyStr(zone)}`;
}

/** Python's `==` between the TTL argument and an RRset's TTL. */
function sameTtl(ttl: unknown, have: number): boolean {
  if (typeof ttl === 'boolean') return Number(ttl) === have;
  return typeof ttl === 'number' && ttl === have;
}

interface UpdateArgs extends Net {
  zone: unknown;
  name: unknown;
  ttl: unknown;
  rdtype: unknown;
  data: unknown;
  replace: unknown;
}

async function runUpdate(ctx: ExecContext, a: UpdateArgs, kw: Kw): Promise<boolean | null> {
  const name = pyStr(a.name);
  const qname = nameFromText(fqdnOf(name, a.zone));
  const type = rdtypeFromText(pyStr(a.rdtype));
  const reply = await query(ctx, qname, type, a);
  const rdata = rdataFromText(type, pyStr(a.data));
  const key = await tsigKey(ctx, kw);
  const exists = answerSets(reply).some((set) => holds(set, rdata) && sameTtl(a.ttl, set.ttl));
  const zone = nameFromText(pyStr(a.zone));
  const owner = nameFromText(name, null);
  let records: ReturnType<typeof updateRecord>[];
  if (pyTruthy(a.replace)) {
    const ttl = pyInt(a.ttl);
    records = [
      updateRecord(zone, owner, type, CLASS_ANY, 0),
      updateRecord(zone, owner, type, CLASS_IN, ttl, rdata),
    ];
  } else if (!exists) records = [updateRecord(zone, owner, type, CLASS_IN, pyInt(a.ttl), rdata)];
  else return null;
  return (await sendUpdate(ctx, zone, records, key, a)) === 0;
}

interface DeleteArgs extends Net {
  zone: unknown;
  name: unknown;
  rdtype: unknown;
  data: unknown;
}

async function runDelete(ctx: ExecContext, a: DeleteArgs, kw: Kw): Promise<boolean | null> {
  const name = pyStr(a.name);
  const qname = nameFromText(fqdnOf(name, a.zone));
  const reply = await query(ctx, qname, pyTruthy(a.rdtype) ? rdtypeFromText(pyStr(a.rdtype)) : TYPE_ANY, a);
  if (reply.answer.length === 0) return null;
  const key = await tsigKey(ctx, kw);
  const zone = nameFromText(pyStr(a.zone));
  const owner = nameFromText(name, null);
  let record: ReturnType<typeof updateRecord>;
  if (pyTruthy(a.rdtype)) {
    const type = rdtypeFromText(pyStr(a.rdtype));
    record = pyTruthy(a.data)
      ? updateRecord(zone, owner, type, CLASS_NONE, 0, rdataFromText(type, pyStr(a.data)))
      : updateRecord(zone, owner, type, CLASS_ANY, 0);
  } else record = updateRecord(zone, owner, TYPE_ANY, CLASS_ANY, 0);
  return (await sendUpdate(ctx, zone, [record], key, a)) === 0;
}

/** The reverse zones Salt tries for an IPv4 address, most specific first, with the owner in each. */
function reverseZones(ip: string): [zone: string, name: string][] {
  const parts = ip.split('.').reverse();
  const popped: string[] = [];
  const out: [string, string][] = [];
  while (parts.length > 1) {
    popped.push(parts.shift() as string);
    out.push([`${parts.join('.')}.in-addr.arpa.`, popped.join('.')]);
  }
  return out;
}

const netArgs = (z: Z) => ({
  nameserver: z.unknown().default('127.0.0.1'),
  timeout: z.unknown().default(5),
});
const TSIG_DOC = `
Keywords keyfile (a JSON keyring file: {"keyname.": "base64 secret"}), keyname and keyalgorithm
(default HMAC-MD5.SIG-ALG.REG.INT) sign the update with TSIG; each may come from ddns.* config.`;

export default defineModule({
  name: 'ddns',
  doc: 'Support for RFC 2136 dynamic DNS updates, with optional TSIG authentication.',
  functions: {
    add_host: defineFunction({
      args: (z) =>
        z.object({
          zone: z.unknown(),
          name: z.unknown(),
          ttl: z.unknown(),
          ip: z.unknown(),
          nameserver: z.unknown().default('127.0.0.1'),
          replace: z.unknown().default(true),
          timeout: z.unknown().default(5),
          port: z.unknown().default(53),
        }),
      varkw: true,
      doc: `Add, replace, or update the A and PTR (reverse) records for a host.
${TSIG_DOC}

CLI Example:

    salt ns1 ddns.add_host example.com host1 60 10.1.1.1`,
      run: async (ctx, a, extra) => {
        const kw = cleanKwargs(extra.kwargs);
        const res = await runUpdate(ctx, { ...a, rdtype: 'A', data: a.ip }, kw);
        if (res === false) return false;
        if (typeof a.ip !== 'string')
          throw pythonError('AttributeError', `'${pyValueClass(a.ip)}' object has no attribute 'split'`);
        const fqdn = `${pyStr(a.name)}.${pyStr(a.zone)}.`;
        for (const [zone, name] of reverseZones(a.ip)) {
          const ptr = await runUpdate(ctx, { ...a, zone, name, rdtype: 'PTR', data: fqdn }, kw);
          if (ptr) return true;
        }
        return res;
      },
    }),
    delete_host: defineFunction({
      args: (z) =>
        z.object({ zone: z.unknown(), name: z.unknown(), ...netArgs(z), port: z.unknown().default(53) }),
      varkw: true,
      doc: `Delete the forward and reverse records for a host.

Returns true if any records are deleted.
${TSIG_DOC}

CLI Example:

    salt ns1 ddns.delete_host example.com host1`,
      run: async (ctx, a, extra) => {
        const kw = cleanKwargs(extra.kwargs);
        const fqdn = `${pyStr(a.name)}.${pyStr(a.zone)}`;
        const reply = await query(ctx, nameFromText(fqdn), TYPE_A, a);
        const first = answerSets(reply)[0];
        if (first && first.type !== TYPE_A)
          throw pythonError(
            'AttributeError',
            `'${rdtypeToText(first.type)}' object has no attribute 'address'`,
          );
        const ips = (first?.datas ?? []).map((d) => [...d].join('.'));
        let res: boolean | null = await runDelete(ctx, { ...a, rdtype: null, data: null }, kw);
        for (const ip of ips) {
          let ptr: boolean | null = null;
          for (const [zone, name] of reverseZones(ip))
            ptr = await runDelete(ctx, { ...a, zone, name, rdtype: 'PTR', data: `${fqdn}.` }, kw);
          if (ptr) res = true;
        }
        return res;
      },
    }),
    update: defineFunction({
      args: (z) =>
        z.object({
          zone: z.unknown(),
          name: z.unknown(),
          ttl: z.unknown(),
          rdtype: z.unknown(),
          data: z.unknown(),
          ...netArgs(z),
          replace: z.unknown().default(false),
          port: z.unknown().default(53),
        }),
      varkw: true,
      doc: `Add, replace, or update a DNS record.

nameserver must be an IP address and the minion running this module must have update privileges
on that server. If replace is true, first deletes all records for this name and type.
${TSIG_DOC}

CLI Example:

    salt ns1 ddns.update example.com host1 60 A 10.0.0.1`,
      run: (ctx, a, extra) => runUpdate(ctx, a, cleanKwargs(extra.kwargs)),
    }),
    delete: defineFunction({
      args: (z) =>
        z.object({
          zone: z.unknown(),
          name: z.unknown(),
          rdtype: z.unknown().default(null),
          data: z.unknown().default(null),
          ...netArgs(z),
          port: z.unknown().default(53),
        }),
      varkw: true,
      doc: `Delete a DNS record.
${TSIG_DOC}

CLI Example:

    salt ns1 ddns.delete example.com host1 A`,
      run: (ctx, a, extra) => runDelete(ctx, a, cleanKwargs(extra.kwargs)),
    }),
  },
});
