/**
 * Salt's `dnsutil` execution module (`salt/modules/dnsutil.py`): generic DNS utilities: the
 * hosts file read and edited line by line (`parse_hosts`, `hosts_append`, `hosts_remove`), a
 * zone file read (`parse_zone`), a zone serial kept in a grain (`serial`), and the lookups
 * `check_ip`, `A`, `AAAA`, `NS`, `SPF`, `MX`, which go to the `dig` module when `dig` is
 * installed (`A`/`AAAA` resolve through the system resolver without it, as Salt's).
 */
import { lookup } from 'node:dns/promises';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_VALUE } from '../kernel/index.js';
import { pySplitlines, pyStr } from '../kernel/util.js';
import { parseZone } from './_dns-zone.js';
import { pySplit } from './_status-proc.js';
import { which } from './_which.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' dnsutil.${example}`;
const NO_DIG = 'This function requires dig, which is not currently available';
const hostsfile = (z: typeof import('zod').z) => z.unknown().default('/etc/hosts');

/** Salt's `parse_hosts` over the text: `{ip: [names...]}`, comment lines skipped. */
function hostsOf(text: string): Record<string, string[]> {
  const hosts: Record<string, string[]> = {};
  for (const line of pySplitlines(text)) {
    if (!line || line.startsWith('#')) continue;
    const [ip, ...names] = pySplit(line);
    if (ip === undefined)
      throw new SALT_ERR_EXEC_VALUE(`cannot read the hosts line: ${JSON.stringify(line)}`);
    hosts[ip] = [...(hosts[ip] ?? []), ...names];
  }
  return hosts;
}

async function parseHosts(file: unknown, given: unknown): Promise<Record<string, string[]> | string> {
  let text = given;
  if (!text) {
    try {
      text = await readFile(pyStr(file), 'utf8');
    } catch {
      return 'Error: hosts data was not found';
    }
  }
  return hostsOf(String(text));
}

function entriesOf(entries: unknown): string[] {
  if (typeof entries !== 'string')
    throw new SALT_ERR_EXEC_VALUE('entries must be a comma-separated string of host names');
  return entries.split(',');
}

async function hostsAppend(file: unknown, ip: unknown, entries: unknown): Promise<string> {
  const names = entriesOf(entries);
  const hosts = await parseHosts(file, undefined);
  const known = typeof hosts === 'object' ? hosts[pyStr(ip)] : undefined;
  if (known) {
    // Salt removes from the list while iterating over it, so a name right after a removed one
    // is not looked at; the same names end up appended
    for (let i = 0; i < names.length; i++) {
      if (known.includes(names[i] as string)) names.splice(i, 1);
    }
  }
  if (names.length === 0) return `No additional hosts were added to ${pyStr(file)}`;
  const line = `\n${pyStr(ip)} ${names.join(' ')}`;
  await appendFile(pyStr(file), line);
  return `The following line was added to ${pyStr(file)}:${line}`;
}

async function hostsRemove(file: unknown, entries: unknown): Promise<null> {
  const text = await readFile(pyStr(file), 'utf8');
  const names = entriesOf(entries);
  let out = '';
  for (const line of pySplitlines(text)) {
    if (!line || line.trim().startsWith('#')) {
      out += `${line}\n`;
      continue;
    }
    const comps = pySplit(line);
    for (const name of names) {
      const i = comps.indexOf(name, 1);
      if (i > 0) comps.splice(comps.indexOf(name), 1);
    }
    if (comps.length > 1) out += `${comps.join(' ')}\n`;
  }
  await writeFile(pyStr(file), out);
  return null;
}

/** Salt's `serial`: the date's serial (`YYYYMMDD01`), or the grain's, raised by one on update. */
async function serial(ctx: ExecContext, zone: unknown, update: unknown): Promise<unknown> {
  const key = zone ? `dnsserial_${pyStr(zone)}` : 'dnsserial';
  const stored = await ctx.call('grains.get', [], { key });
  const d = new Date();
  const present = `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}01`;
  if (!update) return stored || present;
  const current =
    stored && pyStr(stored) >= present ? String(Number.parseInt(pyStr(stored), 10) + 1) : present;
  await ctx.call('grains.setval', [], { key, val: current });
  return current;
}

async function resolve(host: unknown, family: 4 | 6): Promise<string[] | string> {
  try {
    return (await lookup(pyStr(host), { family, all: true })).map((a) => a.address);
  } catch {
    return `Unable to resolve ${pyStr(host)}`;
  }
}

const hasDig = () => which('dig') !== null;

/** `A`/`AAAA`: through `dig`, else the system resolver when no nameserver is asked for. */
const addressLookup = (type: 'A' | 'AAAA') =>
  defineFunction({
    args: (z) => z.object({ host: z.unknown(), nameserver: z.unknown().optional() }),
    doc: `Return the ${type} record(s) for \`\`host\`\`. Always returns a list.${cli(`${type} www.google.com`)}`,
    run: (ctx, a) => {
      if (hasDig()) return ctx.call(`dig.${type}`, [a.host, a.nameserver ?? null]);
      return a.nameserver == null ? resolve(a.host, type === 'A' ? 4 : 6) : NO_DIG;
    },
  });

export default defineModule({
  name: 'dnsutil',
  doc: 'Compendium of generic DNS utilities (some functions need dig).',
  functions: {
    parse_hosts: defineFunction({
      args: (z) => z.object({ hostsfile: hostsfile(z), hosts: z.unknown().optional() }),
      doc: `Parse /etc/hosts file.${cli('parse_hosts')}`,
      run: (_ctx, a) => parseHosts(a.hostsfile, a.hosts),
    }),
    hosts_append: defineFunction({
      args: (z) =>
        z.object({
          hostsfile: hostsfile(z),
          ip_addr: z.unknown().optional(),
          entries: z.unknown().optional(),
        }),
      doc: `Append a single line to the /etc/hosts file.${cli('hosts_append /etc/hosts 127.0.0.1 ad1.yuk.co,ad2.yuk.co')}`,
      run: (_ctx, a) => hostsAppend(a.hostsfile, a.ip_addr, a.entries),
    }),
    hosts_remove: defineFunction({
      args: (z) => z.object({ hostsfile: hostsfile(z), entries: z.unknown().optional() }),
      doc: `Remove a host from the /etc/hosts file; a line left with only its address goes, comments and blank lines stay.${cli('hosts_remove /etc/hosts ad1.yuk.co')}`,
      run: (_ctx, a) => hostsRemove(a.hostsfile, a.entries),
    }),
    parse_zone: defineFunction({
      args: (z) => z.object({ zonefile: z.unknown().optional(), zone: z.unknown().optional() }),
      doc: `Parses a zone file. Can be passed raw zone data on the API level.${cli('parse_zone /var/lib/named/example.com.zone')}`,
      async run(_ctx, a) {
        let text = a.zone;
        if (a.zonefile) text = await readFile(pyStr(a.zonefile), 'utf8').catch(() => text);
        if (!text) return 'Error: Zone data was not found';
        return parseZone(String(text));
      },
    }),
    check_ip: defineFunction({
      args: (z) => z.object({ ip_addr: z.unknown() }),
      doc: `Check that string ip_addr is a valid IP.${cli('check_ip 127.0.0.1')}`,
      run: (ctx, a) => (hasDig() ? ctx.call('dig.check_ip', [a.ip_addr]) : NO_DIG),
    }),
    A: addressLookup('A'),
    AAAA: addressLookup('AAAA'),
    NS: defineFunction({
      args: (z) =>
        z.object({
          domain: z.unknown(),
          resolve: z.unknown().default(true),
          nameserver: z.unknown().optional(),
        }),
      doc: `Return a list of IPs of the nameservers for \`\`domain\`\`; names only with resolve=False.${cli('NS google.com')}`,
      run: (ctx, a) => (hasDig() ? ctx.call('dig.NS', [a.domain, a.resolve, a.nameserver ?? null]) : NO_DIG),
    }),
    SPF: defineFunction({
      args: (z) =>
        z.object({
          domain: z.unknown(),
          record: z.unknown().default('SPF'),
          nameserver: z.unknown().optional(),
        }),
      doc: `Return the allowed IPv4 ranges in the SPF record for \`\`domain\`\`.${cli('SPF google.com')}`,
      run: (ctx, a) => (hasDig() ? ctx.call('dig.SPF', [a.domain, a.record, a.nameserver ?? null]) : NO_DIG),
    }),
    MX: defineFunction({
      args: (z) =>
        z.object({
          domain: z.unknown(),
          resolve: z.unknown().default(false),
          nameserver: z.unknown().optional(),
        }),
      doc: `Return a list of lists for the MX of \`\`domain\`\`; resolve=True gives one IP per server.${cli('MX google.com')}`,
      run: (ctx, a) => (hasDig() ? ctx.call('dig.MX', [a.domain, a.resolve, a.nameserver ?? null]) : NO_DIG),
    }),
    serial: defineFunction({
      args: (z) => z.object({ zone: z.unknown().default(''), update: z.unknown().default(false) }),
      doc: `Return, store and update a DNS serial for a zone, kept in the grain dnsserial_<zone>.${cli('serial example.com')}`,
      run: (ctx, a) => serial(ctx, a.zone, a.update),
    }),
  },
});
