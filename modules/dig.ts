/**
 * Salt's `dig` execution module (`salt/modules/dig.py`): DNS lookups through the `dig` program
 * (`dig +short <name> <type> [@nameserver]`, Debian's bind9-dnsutils): A, AAAA, CNAME, PTR, NS
 * (resolved to addresses unless `resolve=False`), MX (`resolve=True`: the first address of each
 * exchanger), TXT, SPF (the ip4/ip6 ranges, following `include:` and `redirect=`, falling back to
 * TXT), and `check_ip`. A failed `dig` gives `[]`, as Salt's does. Lower-case aliases as Salt's.
 */
import {
  defineFunction,
  defineModule,
  type ExecContext,
  type FunctionSpec,
  RetcodeResult,
} from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { parseAddr } from './_network-ip.js';
import { parsePyInt } from './_py-int.js';
import { which } from './_which.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt ns1 ${example}`;
type Z = typeof import('zod').z;
const ns = (z: Z) => z.unknown().optional();

/** Salt's `check_ip`: an IPv4 or IPv6 address, optionally with a prefix length in range. */
export function checkIp(addr: unknown): boolean {
  if (typeof addr !== 'string') return false;
  const cut = addr.lastIndexOf('/');
  const [ip, prefix] = cut < 0 ? [addr, undefined] : [addr.slice(0, cut), addr.slice(cut + 1)];
  const version = parseAddr(ip)?.version;
  if (version === undefined) return false;
  if (prefix === undefined) return true;
  const n = parsePyInt(prefix);
  if (n === undefined) return false;
  return version === 4 ? n >= 1 && n <= 32 : n >= 8 && n <= 128;
}

/** The exit code of the last `dig` a call ran (Salt's `cmd.run_all` leaves it as the job's retcode). */
const lastExit = new WeakMap<ExecContext, number>();

/** `dig +short <args> [@nameserver]`: its stdout, or null when dig failed (Salt logs a warning). */
async function digShort(ctx: ExecContext, args: string[], nameserver: unknown): Promise<string | null> {
  const argv = ['dig', '+short', ...args];
  if (nameserver !== undefined && nameserver !== null) argv.push(`@${pyStr(nameserver)}`);
  const r = (await ctx.call('cmd.run_all', [argv], { python_shell: false })) as {
    retcode: number;
    stdout: string;
  };
  lastExit.set(ctx, r.retcode);
  if (r.retcode !== 0) {
    ctx.log.warn({}, `dig returned exit code '${r.retcode}'. Returning empty list as fallback.`);
    return null;
  }
  return r.stdout;
}

const pySplit = (s: string): string[] => s.split(/\s+/).filter((x) => x !== '');

async function addresses(ctx: ExecContext, host: unknown, type: 'A' | 'AAAA', nameserver: unknown) {
  const out = await digShort(ctx, [pyStr(host), type], nameserver);
  return out === null ? [] : out.split('\n').filter(checkIp);
}

async function lines(ctx: ExecContext, args: string[], nameserver: unknown): Promise<string[]> {
  const out = await digShort(ctx, args, nameserver);
  return out === null ? [] : out.split('\n');
}

const SPF_RE = /^(?:\+|~)?(ip[46]|include):(.+)/;

/** Salt's `SPF`. */
async function spf(
  ctx: ExecContext,
  domain: unknown,
  record: string,
  nameserver: unknown,
): Promise<string[]> {
  const out = await digShort(ctx, [pyStr(domain), record], nameserver);
  if (out === null) return [];
  if (out === '' && record === 'SPF') return spf(ctx, domain, 'TXT', nameserver);
  const sections = pySplit(out.replace(/"/g, ''));
  if (sections[0] !== 'v=spf1') return [];
  if (sections[1]?.startsWith('redirect=')) return spf(ctx, sections[1].slice(9), 'SPF', nameserver);
  const ret: string[] = [];
  for (const section of sections.slice(1)) {
    const m = SPF_RE.exec(section);
    if (!m) continue;
    const [, mechanism, address = ''] = m;
    if (mechanism === 'include') ret.push(...(await spf(ctx, address, 'SPF', nameserver)));
    else if (checkIp(address)) ret.push(address);
  }
  return ret;
}

const functions: Record<string, FunctionSpec> = {
  check_ip: defineFunction({
    args: (z) => z.object({ addr: z.unknown() }),
    doc: `Check if address is a valid IP. returns True if valid, otherwise False.${cli('dig.check_ip 127.0.0.1')}`,
    run: (_ctx, a) => checkIp(a.addr),
  }),
  A: defineFunction({
    args: (z) => z.object({ host: z.unknown(), nameserver: ns(z) }),
    doc: `Return the A record for \`\`host\`\`. Always returns a list.${cli('dig.A www.google.com')}`,
    run: (ctx, a) => addresses(ctx, a.host, 'A', a.nameserver),
  }),
  AAAA: defineFunction({
    args: (z) => z.object({ host: z.unknown(), nameserver: ns(z) }),
    doc: `Return the AAAA record for \`\`host\`\`. Always returns a list.${cli('dig.AAAA www.google.com')}`,
    run: (ctx, a) => addresses(ctx, a.host, 'AAAA', a.nameserver),
  }),
  PTR: defineFunction({
    args: (z) => z.object({ host: z.unknown(), nameserver: ns(z) }),
    doc: `Return the PTR record for \`\`host\`\`. Always returns a list.${cli('dig.PTR 1.2.3.4')}`,
    run: (ctx, a) => lines(ctx, ['-x', pyStr(a.host)], a.nameserver),
  }),
  CNAME: defineFunction({
    args: (z) => z.object({ host: z.unknown(), nameserver: ns(z) }),
    doc: `Return the CNAME record for \`\`host\`\`.${cli('dig.CNAME mail.google.com')}`,
    run: async (ctx, a) => (await digShort(ctx, [pyStr(a.host), 'CNAME'], a.nameserver)) ?? [],
  }),
  NS: defineFunction({
    args: (z) => z.object({ domain: z.unknown(), resolve: z.unknown().default(true), nameserver: ns(z) }),
    doc: `Return a list of IPs of the nameservers for \`\`domain\`\`; resolve=False: their names.${cli('dig.NS google.com')}`,
    run: async (ctx, a) => {
      const out = await digShort(ctx, [pyStr(a.domain), 'NS'], a.nameserver);
      if (out === null) return [];
      if (!a.resolve) return out.split('\n');
      const ret: string[] = [];
      for (const host of out.split('\n')) ret.push(...(await addresses(ctx, host, 'A', a.nameserver)));
      return ret;
    },
  }),
  SPF: defineFunction({
    args: (z) => z.object({ domain: z.unknown(), record: z.string().default('SPF'), nameserver: ns(z) }),
    doc: `Return the allowed IPv4 ranges in the SPF record for \`\`domain\`\` (the TXT record when the SPF one is empty).${cli('dig.SPF google.com')}`,
    run: (ctx, a) => spf(ctx, a.domain, a.record, a.nameserver),
  }),
  MX: defineFunction({
    args: (z) => z.object({ domain: z.unknown(), resolve: z.unknown().default(false), nameserver: ns(z) }),
    doc: `Return a list of lists for the MX of \`\`domain\`\`; resolve=True: the first IP of each server.${cli('dig.MX google.com')}`,
    run: async (ctx, a) => {
      const out = await digShort(ctx, [pyStr(a.domain), 'MX'], a.nameserver);
      if (out === null) return [];
      const rows = out.split('\n').map(pySplit);
      if (!a.resolve) return rows;
      const ret: [string, string][] = [];
      for (const [pref = '', host] of rows) {
        const ip = (await addresses(ctx, host, 'A', a.nameserver))[0];
        if (ip === undefined) throw new Error(`no A record for the mail exchanger ${String(host)}`);
        ret.push([pref, ip]);
      }
      return ret;
    },
  }),
  TXT: defineFunction({
    args: (z) => z.object({ host: z.unknown(), nameserver: ns(z) }),
    doc: `Return the TXT record for \`\`host\`\`. Always returns a list.${cli('dig.TXT google.com')}`,
    run: (ctx, a) => lines(ctx, [pyStr(a.host), 'TXT'], a.nameserver),
  }),
};

/** A lookup function whose job retcode is its last dig's exit code, as in Salt. */
function lookup(spec: FunctionSpec): FunctionSpec {
  const run = spec.run;
  return {
    ...spec,
    run: async (ctx, a, extra) => {
      const value = await run(ctx, a, extra);
      const code = lastExit.get(ctx) ?? 0;
      return code === 0 ? value : new RetcodeResult(value, code);
    },
  };
}

export default defineModule({
  name: 'dig',
  doc: 'Compendium of generic DNS utilities, through the dig program.',
  virtual: () =>
    which('dig')
      ? true
      : {
          ok: false,
          reason: 'The dig execution module cannot be loaded: the dig binary is not in the path.',
        },
  functions: {
    ...Object.fromEntries(Object.entries(functions).map(([k, f]) => [k, k === 'check_ip' ? f : lookup(f)])),
    // Salt's lower-case aliases
    ...Object.fromEntries(
      ['A', 'PTR', 'AAAA', 'CNAME', 'NS', 'SPF', 'MX'].map((k) => [
        k.toLowerCase(),
        lookup(functions[k] as FunctionSpec),
      ]),
    ),
  },
});
