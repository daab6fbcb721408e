/**
 * Salt's `group` state module (`salt/states/group.py`): `group.present` (gid, members,
 * addusers, delusers, system) and `group.absent`, through the `group` execution module.
 */
import { pyRepr } from '../kernel/util.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

type GroupInfo = { name?: string; gid?: number; members?: string[] };
type Changes = Record<string, unknown>;

/** A Python set's repr (`set()` when empty). */
class PySet {
  constructor(readonly items: string[]) {}
  toString(): string {
    return this.items.length === 0 ? 'set()' : `{${this.items.map((i) => pyRepr(i)).join(', ')}}`;
  }
}

const reprOf = (v: unknown): string =>
  v instanceof PySet ? v.toString() : typeof v === 'string' ? v : pyRepr(v);

async function info(ctx: StateContext, name: string): Promise<GroupInfo> {
  return ((await ctx.call('group.info', [name])) ?? {}) as GroupInfo;
}

/** Salt's `_changes`: false when the group is missing, else what differs ({result, comment} on a bad gid). */
async function changesOf(
  ctx: StateContext,
  name: string,
  gid: unknown,
  addusers: string[] | null | undefined,
  delusers: string[] | null | undefined,
  members: string[] | null | undefined,
): Promise<false | Changes> {
  const lgrp = await info(ctx, name);
  if (Object.keys(lgrp).length === 0) return false;
  const have = lgrp.members ?? [];
  const change: Changes = {};
  if (gid) {
    const n = typeof gid === 'number' ? gid : /^\s*-?\d+\s*$/.test(String(gid)) ? Number(gid) : Number.NaN;
    if (Number.isNaN(n)) return { result: false, comment: 'Invalid gid' };
    if (lgrp.gid !== n) change.gid = n;
  }
  const differs = (want: string[]) =>
    have.some((m) => !want.includes(m)) || want.some((m) => !have.includes(m));
  if (members !== undefined && members !== null && members.length === 0) {
    if (differs(members)) change.delusers = new PySet(have);
  } else if (members && members.length > 0) {
    if (differs(members)) change.members = members;
  }
  if (addusers && addusers.length > 0) {
    const add = addusers.filter((u) => !have.includes(u));
    if (add.length > 0) change.addusers = add;
  }
  if (delusers && delusers.length > 0) {
    const del = delusers.filter((u) => have.includes(u));
    if (del.length > 0) change.delusers = del;
  }
  return change;
}

const users = (z: typeof import('zod').z) =>
  z
    .union([z.array(z.union([z.string(), z.number()])), z.string()])
    .nullish()
    .transform((v) =>
      v === undefined || v === null ? v : typeof v === 'string' ? v.split(',') : v.map(String),
    );

const present = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      gid: z.union([z.number(), z.string()]).nullish(),
      system: z.boolean().default(false),
      addusers: users(z),
      delusers: users(z),
      members: users(z),
      non_unique: z.boolean().default(false),
    }),
  doc: 'Ensure that a group is present, with the given gid and members.',
  async run(ctx, a): Promise<StateReturn> {
    const { name, gid, addusers, delusers, members } = a;
    const ret: StateReturn = {
      name,
      changes: {},
      result: true,
      comment: `Group ${name} is present and up to date`,
    };
    if (members !== undefined && members !== null && (addusers != null || delusers != null)) {
      ret.result = null;
      ret.comment =
        'Error: Conflicting options "members" with "addusers" and/or "delusers" can not be used together. ';
      return ret;
    }
    if (addusers && delusers && addusers.some((u) => delusers.includes(u))) {
      ret.result = null;
      ret.comment = 'Error. Same user(s) can not be added and deleted simultaneously';
      return ret;
    }
    let changes = await changesOf(ctx, name, gid, addusers, delusers, members);
    if (changes && Object.keys(changes).length > 0) {
      let comment = 'The following group attributes are set to be changed:\n';
      for (const [k, v] of Object.entries(changes)) comment += `${k}: ${reprOf(v)}\n`;
      ret.comment = comment;
      if (ctx.test) {
        ret.result = null;
        return ret;
      }
      for (const [k, v] of Object.entries(changes)) {
        if (k === 'gid') await ctx.call('group.chgid', [name, gid], { non_unique: a.non_unique ?? false });
        else if (k === 'addusers') for (const u of v as string[]) await ctx.call('group.adduser', [name, u]);
        else if (k === 'delusers') {
          const list = v instanceof PySet ? v.items : (v as string[]);
          for (const u of list) await ctx.call('group.deluser', [name, u]);
        } else if (k === 'members') await ctx.call('group.members', [name, (members ?? []).join(',')]);
      }
      changes = await changesOf(ctx, name, gid, addusers, delusers, members);
      if (changes && Object.keys(changes).length > 0) {
        ret.result = false;
        ret.comment += 'Some changes could not be applied';
        ret.changes = { Failed: changes };
      } else ret.changes = { Final: 'All changes applied successfully' };
    }
    if (changes === false) {
      if (ctx.test) {
        ret.result = null;
        ret.comment = `Group ${name} set to be added`;
        return ret;
      }
      if (gid !== undefined && gid !== null && !a.non_unique) {
        const all = (await ctx.call('group.getent', [])) as GroupInfo[];
        const taken = all.find((g) => g.gid === gid);
        if (taken) {
          ret.result = false;
          ret.comment = `Group ${name} is not present but gid ${gid} is already taken by group ${taken.name}`;
          return ret;
        }
      }
      const added = await ctx.call('group.add', [name], {
        gid,
        system: a.system ?? false,
        non_unique: a.non_unique ?? false,
      });
      if (added) {
        let grpMembers: string | undefined;
        if (members && members.length > 0) grpMembers = members.join(',');
        if (addusers && addusers.length > 0) grpMembers = addusers.join(',');
        if (grpMembers) await ctx.call('group.members', [name, grpMembers]);
        ret.comment = `New group ${name} created`;
        ret.changes = (await info(ctx, name)) as Changes;
        const left = await changesOf(ctx, name, gid, addusers, delusers, members);
        if (left && Object.keys(left).length > 0) {
          ret.result = false;
          ret.comment = `Group ${name} has been created but, some changes could not be applied`;
          ret.changes = { Failed: left };
        }
      } else {
        ret.result = false;
        ret.comment = `Failed to create new group ${name}`;
      }
    }
    return ret;
  },
});

export default defineStateModule({
  name: 'group',
  doc: 'Management of user groups (group.present, group.absent).',
  functions: {
    present,
    absent: defineState({
      args: (z) => z.object({ name: z.string() }),
      doc: 'Ensure that the named group is absent.',
      async run(ctx, { name }): Promise<StateReturn> {
        const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
        if (Object.keys(await info(ctx, name)).length === 0) {
          ret.comment = 'Group not present';
          return ret;
        }
        if (ctx.test) {
          ret.result = null;
          ret.comment = `Group ${name} is set for removal`;
          return ret;
        }
        if (await ctx.call('group.delete', [name])) {
          ret.changes = { [name]: '' };
          ret.comment = `Removed group ${name}`;
        } else {
          ret.result = false;
          ret.comment = `Failed to remove group ${name}`;
        }
        return ret;
      },
    }),
  },
});
