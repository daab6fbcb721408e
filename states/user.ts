/**
 * Salt's `user` state module (`salt/states/user.py`), Linux: `user.present` creates or
 * updates an account (uid, gid, groups, home, shell, password hash and ageing, GECOS fields)
 * and `user.absent` removes one, through the `user`, `shadow` and `group` execution modules.
 */
import { mkdir } from 'node:fs/promises';
import type { z } from 'zod';
import { pyRepr } from '../kernel/util.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { userChanges, type WantedUser } from './_user-changes.js';

type Info = Record<string, unknown>;
const REDACTED = 'XXX-REDACTED-XXX';

const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const strOrNull = (v: unknown): string | null | undefined =>
  v === undefined || v === null ? (v as null | undefined) : String(v);
const valRepr = (v: unknown): string => (typeof v === 'string' ? v : pyRepr(v));

const presentArgs = (z: typeof import('zod').z) => {
  const list = z
    .union([z.array(z.union([z.string(), z.number()])), z.string()])
    .nullish()
    .transform((v) =>
      v === undefined || v === null ? v : typeof v === 'string' ? v.split(',') : v.map(String),
    );
  const int = z
    .union([z.number(), z.string()])
    .nullish()
    .transform((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v));
  const text = z.unknown().optional();
  return z.object({
    name: z.string(),
    uid: int,
    gid: int,
    usergroup: z.boolean().nullish(),
    groups: list,
    optional_groups: list,
    remove_groups: z.boolean().default(true),
    home: z.string().nullish(),
    createhome: z.boolean().default(true),
    persist_home: z.boolean().default(false),
    password: z.string().nullish(),
    hash_password: z.boolean().default(false),
    enforce_password: z.boolean().default(true),
    empty_password: z.boolean().default(false),
    shell: z.string().nullish(),
    unique: z.boolean().default(true),
    system: z.boolean().default(false),
    fullname: text,
    roomnumber: text,
    workphone: text,
    homephone: text,
    other: text,
    loginclass: z.string().nullish(),
    date: int,
    mindays: int,
    maxdays: int,
    inactdays: int,
    warndays: int,
    expire: int,
    win_homedrive: z.string().nullish(),
    win_profile: z.string().nullish(),
    win_logonscript: z.string().nullish(),
    win_description: z.string().nullish(),
    nologinit: z.boolean().default(false),
    allow_uid_change: z.boolean().default(false),
    allow_gid_change: z.boolean().default(false),
    password_lock: z.boolean().nullish(),
  });
};
type PresentArgs = z.output<ReturnType<typeof presentArgs>>;
/** Salt's `hash_password`: hash a clear-text password, re-using the current hash's salt and algorithm. */
async function hashed(ctx: StateContext, name: string, password: string): Promise<string> {
  const algorithms: Record<string, string> = { '1': 'md5', '5': 'sha256', '6': 'sha512' };
  const current = String(((await ctx.call('shadow.info', [name])) as Info).passwd ?? '');
  const parts = current.split('$');
  if (parts.length === 4 && algorithms[parts[1] as string]) {
    return String(
      await ctx.call('shadow.gen_password', [password], {
        crypt_salt: parts[2],
        algorithm: algorithms[parts[1] as string],
      }),
    );
  }
  return String(await ctx.call('shadow.gen_password', [password]));
}

async function create(
  ctx: StateContext,
  a: PresentArgs,
  w: WantedUser,
  ret: StateReturn,
): Promise<StateReturn> {
  const { name } = a;
  if (ctx.test) {
    ret.result = null;
    ret.comment = `User ${name} set to be added`;
    return ret;
  }
  let groups = w.groups ? [...w.groups] : w.groups;
  if (groups && w.optional_groups) groups.push(...w.optional_groups);
  else if (w.optional_groups) groups = [...w.optional_groups];
  const params: Info = {
    uid: a.uid,
    gid: a.gid,
    groups,
    home: a.home,
    shell: a.shell,
    unique: a.unique,
    system: a.system,
    fullname: w.fullname,
    roomnumber: w.roomnumber,
    workphone: w.workphone,
    homephone: w.homephone,
    other: w.other,
    createhome: a.createhome,
    nologinit: a.nologinit,
    loginclass: a.loginclass,
    usergroup: a.usergroup,
  };
  const result = await ctx.call(
    'user.add',
    [name],
    Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== null)),
  );
  if (result !== true) {
    ret.result = false;
    ret.comment = typeof result === 'string' ? result : `Failed to create new user ${name}`;
    return ret;
  }
  ret.comment = `New user ${name} created`;
  const changes = (await ctx.call('user.info', [name])) as Info;
  ret.changes = changes;
  if (!a.createhome) changes.home = '';
  const spost = async () => (await ctx.call('shadow.info', [name])) as Info;
  const failed = (what: string) => {
    ret.comment = `User ${name} created but failed to set ${what}`;
    ret.result = false;
  };
  if (w.password && !a.empty_password) {
    await ctx.call('shadow.set_password', [name, w.password]);
    if ((await spost()).passwd !== w.password) failed(`password to ${REDACTED}`);
    changes.password = REDACTED;
  }
  if (a.empty_password && !w.password) {
    await ctx.call('shadow.del_password', [name]);
    if ((await spost()).passwd !== '') {
      ret.comment = `User ${name} created but failed to empty password`;
      ret.result = false;
    }
    changes.password = '';
  }
  if (a.date !== undefined && a.date !== null) {
    await ctx.call('shadow.set_date', [name, a.date]);
    if ((await spost()).lstchg !== a.date) failed(`last change date to ${a.date}`);
    changes.date = a.date;
  }
  const ageing = [
    ['mindays', 'set_mindays', 'min', 'minimum days'],
    ['maxdays', 'set_maxdays', 'max', 'maximum days'],
    ['inactdays', 'set_inactdays', 'inact', 'inactive days'],
    ['warndays', 'set_warndays', 'warn', 'warn days'],
    ['expire', 'set_expire', 'expire', 'expire days'],
  ] as const;
  for (const [arg, fn, key, what] of ageing) {
    const v = a[arg];
    if (!v) continue;
    await ctx.call(`shadow.${fn}`, [name, v]);
    if ((await spost())[key] !== v) failed(`${what} to ${v}`);
    changes[arg] = v;
  }
  return ret;
}

async function update(
  ctx: StateContext,
  a: PresentArgs,
  w: WantedUser,
  changes: Info,
  ret: StateReturn,
): Promise<StateReturn> {
  const { name } = a;
  if (ctx.test) {
    ret.result = null;
    let comment = 'The following user attributes are set to be changed:\n';
    for (const [k, v] of Object.entries(changes))
      comment += `${k}: ${k === 'passwd' ? REDACTED : valRepr(v)}\n`;
    ret.comment = comment;
    return ret;
  }
  const lshad = (await ctx.call('shadow.info', [name])) as Info;
  const pre = (await ctx.call('user.info', [name])) as Info;
  const take = (k: string): unknown => {
    const v = changes[k];
    delete changes[k];
    return v;
  };
  if ('passwd' in changes) {
    take('passwd');
    if (!a.empty_password) await ctx.call('shadow.set_password', [name, w.password]);
  }
  if (take('empty_password') === true) await ctx.call('shadow.del_password', [name]);
  if ('password_lock' in changes) {
    const lock = take('password_lock');
    await ctx.call(lock ? 'shadow.lock_password' : 'shadow.unlock_password', [name]);
  }
  if ('date' in changes) {
    take('date');
    await ctx.call('shadow.set_date', [name, a.date]);
  }
  let homeChanged = false;
  if ('home' in changes) {
    const val = take('home');
    if (!('homeDoesNotExist' in changes)) {
      await ctx.call('user.chhome', [name, val], { persist: a.persist_home });
      homeChanged = true;
    }
  }
  if ('homeDoesNotExist' in changes) {
    const val = String(take('homeDoesNotExist'));
    if (!homeChanged) await ctx.call('user.chhome', [name, val], { persist: a.persist_home });
    await mkdir(val, { recursive: true, mode: 0o755 }).catch(() => undefined);
    const { chown } = await import('node:fs/promises');
    await chown(val, Number(pre.uid), Number(pre.gid)).catch(() => undefined);
  }
  for (const [arg, fn] of [
    ['mindays', 'set_mindays'],
    ['maxdays', 'set_maxdays'],
    ['inactdays', 'set_inactdays'],
    ['warndays', 'set_warndays'],
    ['expire', 'set_expire'],
  ] as const) {
    if (arg in changes) {
      take(arg);
      await ctx.call(`shadow.${fn}`, [name, a[arg]]);
    }
  }
  const chFns = ['uid', 'gid', 'shell', 'fullname', 'roomnumber', 'workphone', 'homephone', 'other'];
  for (const k of Object.keys(changes).filter((k) => chFns.includes(k)))
    await ctx.call(`user.ch${k}`, [name, take(k)]);
  if ('groups' in changes) await ctx.call('user.chgroups', [name, take('groups'), !a.remove_groups]);
  if (Object.keys(changes).length > 0) {
    ret.warnings = [...(ret.warnings ?? []), `Unhandled changes: ${Object.keys(changes).join(', ')}`];
  }
  const post = (await ctx.call('user.info', [name])) as Info;
  const spost = lshad.passwd !== w.password ? ((await ctx.call('shadow.info', [name])) as Info) : {};
  const out: Info = {};
  for (const k of Object.keys(post)) if (JSON.stringify(post[k]) !== JSON.stringify(pre[k])) out[k] = post[k];
  for (const k of Object.keys(spost))
    if (lshad[k] !== spost[k]) out[k] = k === 'passwd' ? REDACTED : spost[k];
  ret.changes = out;
  if (Object.keys(out).length > 0) ret.comment = `Updated user ${name}`;
  const left = await userChanges(ctx, name, { ...w, allow_uid_change: true, allow_gid_change: true });
  if (left && Object.keys(left).length > 0) {
    ret.comment = `These values could not be changed: ${pyRepr(left)}`;
    ret.result = false;
  }
  return ret;
}

const present = defineState({
  args: presentArgs,
  doc: 'Ensure that the named user is present with the specified properties.',
  async run(ctx, a): Promise<StateReturn> {
    const { name } = a;
    let password = a.password;
    if (password && a.hash_password) password = await hashed(ctx, name, password);
    const ret: StateReturn = {
      name,
      changes: {},
      result: true,
      comment: `User ${name} is present and up to date`,
    };
    const fullname = strOrNull(a.fullname);
    const roomnumber = strOrNull(a.roomnumber);
    const workphone = strOrNull(a.workphone);
    for (const field of [fullname, roomnumber, workphone]) {
      if (typeof field === 'string' && field.includes(',')) {
        ret.comment = `Unsupported char ',' in ${field}`;
        ret.result = false;
        return ret;
      }
    }
    if (a.groups && a.groups.length > 0) {
      const missing: string[] = [];
      for (const g of a.groups) {
        const i = (await ctx.call('group.info', [g])) as Info;
        if (!i || Object.keys(i).length === 0) missing.push(g);
      }
      if (missing.length > 0) {
        ret.comment = `The following group(s) are not present: ${missing.join(',')}`;
        ret.result = false;
        return ret;
      }
    }
    let presentOpt: string[] | null = null;
    if (a.optional_groups && a.optional_groups.length > 0) {
      presentOpt = [];
      for (const g of a.optional_groups) {
        const i = (await ctx.call('group.info', [g])) as Info;
        if (i && Object.keys(i).length > 0) presentOpt.push(g);
        else ctx.log.debug(`Optional group "${g}" for user "${name}" is not present`);
      }
    }
    let changesGid: number | string | null | undefined = a.gid;
    if (a.usergroup) {
      const own = (await ctx.call('group.info', [name])) as Info;
      if (own && Object.keys(own).length > 0) changesGid = name;
    }
    const w: WantedUser = {
      uid: typeof a.uid === 'number' ? a.uid : a.uid === undefined || a.uid === null ? a.uid : Number(a.uid),
      gid: changesGid,
      groups: a.groups,
      optional_groups: presentOpt,
      remove_groups: a.remove_groups,
      home: a.home,
      createhome: a.createhome,
      password,
      enforce_password: a.enforce_password,
      empty_password: a.empty_password,
      shell: a.shell,
      fullname,
      roomnumber,
      workphone,
      homephone: strOrNull(a.homephone),
      other: strOrNull(a.other),
      date: a.date,
      mindays: a.mindays as number | null | undefined,
      maxdays: a.maxdays as number | null | undefined,
      inactdays: a.inactdays as number | null | undefined,
      warndays: a.warndays as number | null | undefined,
      expire: a.expire,
      allow_uid_change: a.allow_uid_change,
      allow_gid_change: a.allow_gid_change,
      password_lock: a.password_lock,
    };
    let changes: false | Info;
    try {
      changes = await userChanges(ctx, name, w);
    } catch (err) {
      ret.result = false;
      ret.comment = errText(err);
      return ret;
    }
    if (changes === false) return create(ctx, a, { ...w, gid: a.gid }, ret);
    if (Object.keys(changes).length > 0) return update(ctx, a, { ...w, gid: a.gid }, changes, ret);
    return ret;
  },
});

export default defineStateModule({
  name: 'user',
  doc: 'Management of user accounts (user.present, user.absent).',
  functions: {
    present,
    absent: defineState({
      args: (zz) =>
        zz.object({
          name: zz.string(),
          purge: zz.boolean().default(false),
          force: zz.boolean().default(false),
        }),
      doc: 'Ensure that the named user is absent (purge=True removes its home and mail spool too).',
      async run(ctx, { name, purge, force }): Promise<StateReturn> {
        const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
        const lusr = (await ctx.call('user.info', [name])) as Info;
        if (!lusr || Object.keys(lusr).length === 0) {
          ret.comment = `User ${name} is not present`;
          return ret;
        }
        if (ctx.test) {
          ret.result = null;
          ret.comment = `User ${name} set for removal`;
          return ret;
        }
        const before = new Set((lusr.groups as string[]) ?? []);
        ret.result = Boolean(await ctx.call('user.delete', [name, purge, force]));
        if (!ret.result) {
          ret.comment = `Failed to remove user ${name}`;
          return ret;
        }
        const changes: Info = {};
        for (const g of before) {
          const i = (await ctx.call('group.info', [g])) as Info;
          if (!i || Object.keys(i).length === 0) changes[`${g} group`] = 'removed';
        }
        changes[name] = 'removed';
        ret.changes = changes;
        ret.comment = `Removed user ${name}`;
        return ret;
      },
    }),
  },
});
