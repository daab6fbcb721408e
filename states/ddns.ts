/**
 * Salt's `ddns` state module (`salt/states/ddns.py`): `ddns.present` and `ddns.absent` keep a
 * DNS record through RFC 2136 updates, calling `ddns.update` and `ddns.delete` (other keywords,
 * such as nameserver, port, keyfile, keyname, go with them). Under test=True nothing is asked.
 */
import { pyStr } from '../kernel/util.js';
import { cleanKwargs } from '../modules/_invalid-kwargs.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const KW_DOC = `Other keywords go to the ddns execution function (nameserver, port, timeout, keyfile,
keyname, keyalgorithm); the keyfile is a JSON keyring, not an nsupdate key file.`;

const present = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      zone: z.unknown(),
      ttl: z.unknown(),
      data: z.unknown(),
      rdtype: z.unknown().default('A'),
    }),
  varkw: true,
  doc: `Ensures that the named DNS record is present with the given ttl.

name: the host part of the record (joined to zone unless it ends in a dot).
zone: the zone to check and update. ttl: the record's TTL. data: the record's data (an address
for an A record). rdtype: the record type, A by default.
${KW_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const { name } = a;
    const rdtype = pyStr(a.rdtype);
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    if (ctx.test) return { ...ret, result: null, comment: `${rdtype} record "${name}" will be updated` };
    const status = await ctx.call(
      'ddns.update',
      [a.zone, name, a.ttl, a.rdtype, a.data],
      cleanKwargs(extra.kwargs),
    );
    if (status === null || status === undefined)
      return {
        ...ret,
        result: true,
        comment: `${rdtype} record "${name}" already present with ttl of ${pyStr(a.ttl)}`,
      };
    if (status)
      return {
        ...ret,
        result: true,
        comment: `Updated ${rdtype} record for "${name}"`,
        changes: { name, zone: a.zone, ttl: a.ttl, rdtype: a.rdtype, data: a.data },
      };
    return { ...ret, comment: `Failed to create or update ${rdtype} record for "${name}"` };
  },
});

const absent = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      zone: z.unknown(),
      data: z.unknown().default(null),
      rdtype: z.unknown().default(null),
    }),
  varkw: true,
  doc: `Ensures that the named DNS record is absent.

name: the host part of the record (joined to zone unless it ends in a dot).
zone: the zone to check. data: the record's data; without it every record of the name (and
rdtype, when given) goes. rdtype: the record type; without it every type goes.
${KW_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const { name } = a;
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    if (ctx.test)
      return { ...ret, result: null, comment: `${pyStr(a.rdtype)} record "${name}" will be deleted` };
    const status = await ctx.call('ddns.delete', [a.zone, name, a.rdtype, a.data], cleanKwargs(extra.kwargs));
    if (status === null || status === undefined)
      return { ...ret, result: true, comment: 'No matching DNS record(s) present' };
    if (status)
      return {
        ...ret,
        result: true,
        comment: 'Deleted DNS record(s)',
        changes: { Deleted: { name, zone: a.zone } },
      };
    return { ...ret, comment: 'Failed to delete DNS record(s)' };
  },
});

export default defineStateModule({
  name: 'ddns',
  doc: 'Dynamic DNS updates: ensure a DNS record is present or absent with RFC 2136 updates.',
  functions: { present, absent },
});
