/**
 * Salt's `kmod` state module (`salt/states/kmod.py`): `kmod.present` loads kernel modules
 * (and keeps them in the modules file with `persist`), `kmod.absent` removes them, through the
 * `kmod` execution module. Several modules at once go in `mods`; their order is the order
 * given (Salt's comes from a Python set).
 */
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

function note(ret: StateReturn, text: string): void {
  ret.comment = ret.comment ? `${String(ret.comment).trimEnd()}\n${text}` : text;
}

/** "Kernel module a <verb>" or "Kernel modules a, b <verb plural>". */
const phrase = (mods: readonly string[], one: string, many: string): string =>
  mods.length === 1 ? `Kernel module ${mods[0]} ${one}` : `Kernel modules ${mods.join(', ')} ${many}`;

const listOf = (name: string, mods: unknown): string[] => (Array.isArray(mods) ? mods.map(String) : [name]);

async function loadedSet(ctx: StateContext, persist: boolean, union: boolean): Promise<Set<string>> {
  const loaded = new Set((await ctx.call('kmod.mod_list', [])) as string[]);
  if (!persist) return loaded;
  const persisted = (await ctx.call('kmod.mod_list', [true])) as string[];
  return union ? new Set([...loaded, ...persisted]) : new Set(persisted.filter((m) => loaded.has(m)));
}

/**
 * Loads or removes each module with `call`, records what changed, and says what happened. A
 * module loaded as another's dependency is not loaded again.
 */
async function each(
  ret: StateReturn,
  mods: readonly string[],
  verb: 'load' | 'remove',
  call: (mod: string) => Promise<unknown>,
): Promise<void> {
  const yes: string[] = [];
  const no: string[] = [];
  const failed: [string, string][] = [];
  const byDependency = new Set<string>();
  const changes = ret.changes as Record<string, string>;
  for (const mod of mods) {
    if (byDependency.has(mod)) {
      yes.push(mod);
      continue;
    }
    const r = await call(mod);
    if (!Array.isArray(r)) {
      ret.result = false;
      failed.push([mod, String(r)]);
    } else if (r.length === 0) {
      ret.result = false;
      no.push(mod);
    } else {
      for (const m of r as string[]) {
        changes[m] = verb === 'load' ? 'loaded' : 'removed';
        if (verb === 'load' && m !== mod) byDependency.add(m);
      }
      yes.push(mod);
    }
  }
  const s = (list: readonly string[]) => (list.length > 1 ? 's' : '');
  const done = verb === 'load' ? 'Loaded' : 'Removed';
  if (yes.length > 0) note(ret, `${done} kernel module${s(yes)} ${yes.join(', ')}`);
  if (no.length > 0) note(ret, `Failed to ${verb} kernel module${s(no)} ${no.join(', ')}`);
  for (const [mod, msg] of failed) note(ret, `Failed to ${verb} kernel module ${mod}: ${msg}`);
}

const present = defineState({
  args: (z) =>
    z.object({ name: z.string(), persist: z.boolean().default(false), mods: z.unknown().optional() }),
  doc: 'Ensure that the specified kernel module is loaded (persist=True: also in the modules file; mods: several).',
  async run(ctx, a): Promise<StateReturn> {
    const mods = listOf(a.name, a.mods);
    const ret: StateReturn = { name: a.name, result: true, changes: {}, comment: '' };
    const loaded = await loadedSet(ctx, a.persist, false);
    const already = mods.filter((m) => loaded.has(m));
    if (already.length > 0) note(ret, phrase(already, 'is already present', 'are already present'));
    if (already.length === mods.length) return ret;
    const notLoaded = mods.filter((m) => !loaded.has(m));
    if (ctx.test) {
      ret.result = null;
      if (ret.comment) ret.comment += '\n';
      note(ret, phrase(notLoaded, 'is set to be loaded', 'are set to be loaded'));
      return ret;
    }
    const avail = new Set((await ctx.call('kmod.available', [])) as string[]);
    const unavailable = notLoaded.filter((m) => !avail.has(m));
    if (unavailable.length > 0) {
      note(ret, phrase(unavailable, 'is unavailable', 'are unavailable'));
      ret.result = false;
    }
    await each(
      ret,
      notLoaded.filter((m) => avail.has(m)),
      'load',
      (mod) => ctx.call('kmod.load', [mod, a.persist]),
    );
    return ret;
  },
});

const absent = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      persist: z.boolean().default(false),
      comment: z.boolean().default(true),
      mods: z.unknown().optional(),
    }),
  doc: 'Verify that the named kernel module is not loaded (persist=True: also not in the modules file; mods: several).',
  async run(ctx, a): Promise<StateReturn> {
    const mods = listOf(a.name, a.mods);
    const ret: StateReturn = { name: a.name, result: true, changes: {}, comment: '' };
    const loaded = await loadedSet(ctx, a.persist, true);
    const toUnload = mods.filter((m) => loaded.has(m));
    if (toUnload.length === 0) {
      ret.comment = phrase(mods, 'is already removed', 'are already removed');
      return ret;
    }
    if (ctx.test) {
      ret.result = null;
      note(ret, phrase(toUnload, 'is set to be removed', 'are set to be removed'));
      return ret;
    }
    await each(ret, toUnload, 'remove', (mod) => ctx.call('kmod.remove', [mod, a.persist, a.comment]));
    return ret;
  },
});

export default defineStateModule({
  name: 'kmod',
  doc: 'Loading and unloading of kernel modules (kmod.present, kmod.absent).',
  functions: { present, absent },
});
