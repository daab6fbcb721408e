/**
 * Salt's `hosts` execution module (`salt/modules/hosts.py`): read and change the hosts file,
 * `/etc/hosts` or the minion option `hosts.file`. Comment lines are kept as `comment-<n>`
 * entries; an address's trailing `# comment` is its `comment`.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';

type HostInfo = { aliases?: string[]; comment?: string };
type Hosts = Map<string, HostInfo | string[]>;

function hostsFile(ctx: ExecContext): string {
  const v = ctx.opts['hosts.file'];
  return typeof v === 'string' && v ? v : '/etc/hosts';
}

async function ensureFile(ctx: ExecContext): Promise<string> {
  const hfn = hostsFile(ctx);
  if (!existsSync(hfn)) await writeFile(hfn, '');
  return hfn;
}

async function listHosts(ctx: ExecContext): Promise<Hosts> {
  const ret: Hosts = new Map();
  let text: string;
  try {
    text = await readFile(hostsFile(ctx), 'utf8');
  } catch {
    return ret;
  }
  let count = 0;
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    if (!line) continue;
    if (line.startsWith('#')) {
      const key = `comment-${count++}`;
      const list = (ret.get(key) as string[] | undefined) ?? [];
      list.push(line);
      ret.set(key, list);
      continue;
    }
    let comment: string | undefined;
    if (line.includes('#')) {
      comment = line.slice(line.indexOf('#') + 1).trimStart();
      line = line.slice(0, line.indexOf('#')).trim();
    }
    const comps = line.split(/\s+/);
    const ip = comps.shift() as string;
    const info = (ret.get(ip) as HostInfo | undefined) ?? {};
    info.aliases = [...(info.aliases ?? []), ...comps];
    if (comment) info.comment = comment;
    ret.set(ip, info);
  }
  return ret;
}

const asInfo = (h: HostInfo | string[] | undefined): HostInfo | undefined =>
  h && !Array.isArray(h) ? h : undefined;

async function hasPair(ctx: ExecContext, ip: string, alias: string | string[]): Promise<boolean> {
  const info = asInfo((await listHosts(ctx)).get(ip));
  if (!info?.aliases) return false;
  const aliases = info.aliases;
  return Array.isArray(alias) ? alias.every((a) => aliases.includes(a)) : aliases.includes(alias);
}

async function writeHosts(ctx: ExecContext, hosts: Hosts): Promise<void> {
  const lines: string[] = [];
  for (const [ip, info] of hosts) {
    if (!ip) continue;
    if (ip.startsWith('comment')) lines.push((info as string[]).join(''));
    else {
      const h = info as HostInfo;
      const base = `${ip}\t\t${(h.aliases ?? []).join(' ')}`;
      lines.push(h.comment !== undefined ? `${base}\t\t# ${h.comment}` : base);
    }
  }
  const hfn = await ensureFile(ctx);
  await writeFile(
    hfn,
    lines
      .filter((l) => l.trim())
      .map((l) => `${l.trim()}${os.EOL}`)
      .join(''),
  );
}

/** The file's lines, each with its line ending (Python's readlines). */
const readLines = async (file: string) =>
  (await readFile(file, 'utf8')).split(/(?<=\n)/).filter((l) => l !== '');

export default defineModule({
  name: 'hosts',
  doc: 'Manage the hosts file (/etc/hosts, or the minion option hosts.file).',
  functions: {
    list_hosts: defineFunction({
      doc: "Return the hosts found in the hosts file: {ip: {aliases: [...], comment?}, 'comment-N': [line]}.\n\nCLI Example: salt '*' hosts.list_hosts",
      run: async (ctx) => Object.fromEntries(await listHosts(ctx)),
    }),
    get_ip: defineFunction({
      args: (z) => z.object({ host: z.string() }),
      doc: 'Return the ip associated with the named host, or "".',
      run: async (ctx, a) => {
        for (const [ip, h] of await listHosts(ctx)) if (asInfo(h)?.aliases?.includes(a.host)) return ip;
        return '';
      },
    }),
    get_alias: defineFunction({
      args: (z) => z.object({ ip: z.string() }),
      doc: 'Return the list of aliases associated with an ip.',
      run: async (ctx, a) => asInfo((await listHosts(ctx)).get(a.ip))?.aliases ?? [],
    }),
    has_pair: defineFunction({
      args: (z) => z.object({ ip: z.string(), alias: z.union([z.string(), z.array(z.string())]) }),
      doc: 'Return true if the alias (or all of a list of aliases) is set for the ip.',
      run: (ctx, a) => hasPair(ctx, a.ip, a.alias),
    }),
    set_host: defineFunction({
      args: (z) => z.object({ ip: z.string(), alias: z.string(), comment: z.string().nullish() }),
      doc: 'Set the host entry of an ip to exactly these aliases (space-separated), replacing its lines.',
      run: async (ctx, a) => {
        const hfn = await ensureFile(ctx);
        if (!statSync(hfn).isFile()) return false;
        let add = a.comment
          ? `${a.ip}\t\t${a.alias}\t\t# ${a.comment}${os.EOL}`
          : `${a.ip}\t\t${a.alias}${os.EOL}`;
        if (!a.alias.trim()) add = '';
        const lines = await readLines(hfn);
        let done = false;
        lines.forEach((l, i) => {
          const t = l.trim();
          if (!t || t.startsWith('#')) return;
          if (t.split(/\s+/)[0] === a.ip) {
            lines[i] = done ? '' : add;
            done = true;
          }
        });
        if (!done) {
          const last = lines.length - 1;
          if (last >= 0 && !lines[last]!.endsWith(os.EOL)) lines[last] += os.EOL;
          lines.push(add);
        }
        await writeFile(hfn, lines.join(''));
        return true;
      },
    }),
    rm_host: defineFunction({
      args: (z) => z.object({ ip: z.string(), alias: z.string() }),
      doc: 'Remove a host entry (one alias of an ip) from the hosts file.',
      run: async (ctx, a) => {
        if (!(await hasPair(ctx, a.ip, a.alias))) return true;
        const hfn = await ensureFile(ctx);
        const lines = await readLines(hfn);
        lines.forEach((l, i) => {
          const t = l.trim();
          if (!t || t.startsWith('#')) return;
          let info = t;
          let comment: string | undefined;
          if (t.includes('#')) {
            [info, comment] = t.split('#') as [string, string];
            comment = comment.trimStart();
          }
          const comps = info.split(/\s+/).filter(Boolean);
          if (comps[0] !== a.ip) return;
          let nl = `${comps[0]}\t\t`;
          for (const e of comps.slice(1)) if (e !== a.alias) nl += `${e} `;
          if (nl.trim() === a.ip) lines[i] = '';
          else if (comment) lines[i] = `${nl}# ${comment}${os.EOL}`;
          else lines[i] = `${nl}${os.EOL}`;
        });
        await writeFile(hfn, lines.join(''));
        return true;
      },
    }),
    add_host: defineFunction({
      args: (z) => z.object({ ip: z.string(), alias: z.string() }),
      doc: 'Add a host to an existing entry, or a new entry when the ip has none.',
      run: async (ctx, a) => {
        const hfn = await ensureFile(ctx);
        if (!statSync(hfn).isFile()) return false;
        if (await hasPair(ctx, a.ip, a.alias)) return true;
        const hosts = await listHosts(ctx);
        const info = asInfo(hosts.get(a.ip)) ?? {};
        info.aliases = [...(info.aliases ?? []), a.alias];
        hosts.set(a.ip, info);
        await writeHosts(ctx, hosts);
        return true;
      },
    }),
    set_comment: defineFunction({
      args: (z) => z.object({ ip: z.string(), comment: z.string() }),
      doc: 'Set the comment of an existing host entry.',
      run: async (ctx, a) => {
        const hfn = await ensureFile(ctx);
        if (!statSync(hfn).isFile()) return false;
        const hosts = await listHosts(ctx);
        const info = asInfo(hosts.get(a.ip));
        if (!info) return false;
        if (info.comment === a.comment) return true;
        info.comment = a.comment;
        await writeHosts(ctx, hosts);
        return true;
      },
    }),
  },
});
