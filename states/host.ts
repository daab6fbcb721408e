/**
 * Salt's `host` state module (`salt/states/host.py`): entries of the hosts file through the
 * `hosts` execution module — `host.present` (name for one or more ips, optional comment,
 * `clean` removes the name from other ips), `host.absent` and `host.only`.
 */
import { isIP } from 'node:net';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

type HostInfo = { aliases?: string[]; comment?: string };
const ips = (z: typeof import('zod').z) =>
  z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));

/** Adds `[addr, value]` once (Python's set of tuples). */
function addPair(set: [string, string][], addr: string, value: string): void {
  if (!set.some(([a, v]) => a === addr && v === value)) set.push([addr, value]);
}

function push(changes: Record<string, unknown>, key: string, addr: string, value: string): void {
  const group = (changes[key] ?? {}) as Record<string, string[]>;
  changes[key] = group;
  group[addr] = [...(group[addr] ?? []), value];
}

const present = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      ip: ips(z),
      comment: z.string().default(''),
      clean: z.boolean().default(false),
    }),
  doc: 'Ensure that the named host is present with the given ip (or ips) in the hosts file.',
  async run(ctx, { name, ip, comment, clean }): Promise<StateReturn> {
    const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
    const all = (await ctx.call('hosts.list_hosts', [])) as Record<string, HostInfo | string[]>;
    const comments: string[] = [];
    const toAdd: [string, string][] = [];
    const toRemove: [string, string][] = [];
    const updateComment: [string, string][] = [];
    for (const addr of ip) if (!(addr in all)) addPair(toAdd, addr, name);
    if (comment) for (const addr of ip) if (!(addr in all)) addPair(updateComment, addr, comment);
    for (const [addr, raw] of Object.entries(all)) {
      const info = Array.isArray(raw) ? {} : raw;
      const named = info.aliases?.includes(name) ?? false;
      if (!ip.includes(addr)) {
        if (!named) continue;
        if (clean) addPair(toRemove, addr, name);
        else
          ret.warnings = [
            ...(ret.warnings ?? []),
            `Host ${name} present for IP address ${addr}. To get rid of this warning, either run this state with 'clean' set to True to remove ${name} from ${addr}, or add ${addr} to the 'ip' argument.`,
          ];
      } else if (named) {
        if (comment && info.comment !== undefined && info.comment !== comment)
          addPair(updateComment, addr, comment);
        else if (comment && info.comment === undefined) addPair(updateComment, addr, comment);
        else comments.push(`Host ${name} (${addr}) already present`);
      } else if (isIP(addr)) {
        addPair(toAdd, addr, name);
        if (comment) addPair(updateComment, addr, comment);
      } else {
        ret.result = false;
        comments.push(`Invalid IP Address for ${name} (${addr})`);
      }
    }
    const changes = ret.changes as Record<string, unknown>;
    for (const [addr, host] of toAdd) {
      if (ctx.test) {
        ret.result = null;
        comments.push(`Host ${host} (${addr}) would be added`);
      } else if (await ctx.call('hosts.add_host', [addr, host]))
        comments.push(`Added host ${host} (${addr})`);
      else {
        ret.result = false;
        comments.push(`Failed to add host ${host} (${addr})`);
        continue;
      }
      push(changes, 'added', addr, host);
    }
    for (const [addr, text] of updateComment) {
      if (ctx.test) comments.push(`Comment for ${addr} (${text}) would be added`);
      else if (await ctx.call('hosts.set_comment', [addr, text]))
        comments.push(`Set comment for host ${addr} (${text})`);
      else {
        ret.result = false;
        comments.push(`Failed to add comment for host ${addr} (${text})`);
        continue;
      }
      push(changes, 'comment_added', addr, text);
    }
    for (const [addr, host] of toRemove) {
      if (ctx.test) {
        ret.result = null;
        comments.push(`Host ${host} (${addr}) would be removed`);
      } else if (await ctx.call('hosts.rm_host', [addr, host]))
        comments.push(`Removed host ${host} (${addr})`);
      else {
        ret.result = false;
        comments.push(`Failed to remove host ${host} (${addr})`);
        continue;
      }
      push(changes, 'removed', addr, host);
    }
    ret.comment = comments.join('\n');
    return ret;
  },
});

export default defineStateModule({
  name: 'host',
  doc: 'Management of addresses and names in the hosts file (host.present, host.absent, host.only).',
  functions: {
    present,
    absent: defineState({
      args: (z) => z.object({ name: z.string(), ip: ips(z) }),
      doc: 'Ensure that the named host is absent for the given ip (or ips).',
      async run(ctx, { name, ip }): Promise<StateReturn> {
        const ret: StateReturn = { name, changes: {}, result: null, comment: '' };
        const comments: string[] = [];
        for (const addr of ip) {
          if (!(await ctx.call('hosts.has_pair', [addr, name]))) {
            ret.result = true;
            comments.push(`Host ${name} (${addr}) already absent`);
          } else if (ctx.test) comments.push(`Host ${name} (${addr}) needs to be removed`);
          else if (await ctx.call('hosts.rm_host', [addr, name])) {
            ret.changes = { host: name };
            ret.result = true;
            comments.push(`Removed host ${name} (${addr})`);
          } else {
            ret.result = false;
            comments.push('Failed to remove host');
          }
        }
        ret.comment = comments.join('\n');
        return ret;
      },
    }),
    only: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          hostnames: z
            .union([z.string(), z.array(z.string())])
            .transform((v) => (Array.isArray(v) ? v : [v])),
        }),
      doc: 'Ensure that only the given hostnames are associated with the given ip address.',
      async run(ctx, { name, hostnames }): Promise<StateReturn> {
        const ret: StateReturn = { name, changes: {}, result: null, comment: '' };
        const old = ((await ctx.call('hosts.get_alias', [name])) as string[]).join(' ');
        const nu = hostnames.map((h) => h.trim()).join(' ');
        if (old === nu) {
          ret.comment = `IP address ${name} already set to "${nu}"`;
          ret.result = true;
          return ret;
        }
        if (ctx.test) {
          ret.comment = `Would change ${name} from "${old}" to "${nu}"`;
          return ret;
        }
        ret.result = Boolean(await ctx.call('hosts.set_host', [name, nu]));
        if (!ret.result) {
          ret.comment = `hosts.set_host failed to change ${name} from "${old}" to "${nu}"`;
          return ret;
        }
        ret.comment = `successfully changed ${name} from "${old}" to "${nu}"`;
        ret.changes = { [name]: { old, new: nu } };
        return ret;
      },
    }),
  },
});
