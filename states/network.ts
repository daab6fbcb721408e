/**
 * Salt's `network` states (`salt/states/network.py`) over the `ip` module: `managed` (an
 * interface's configuration, and bringing it up or down), `routes` (its route scripts) and
 * `system` (the global network settings). Each compares the module's current text with the
 * text it would write and reports the difference as Salt's `difflib.unified_diff` does.
 */
import { pyStr, pyTruthy } from '../kernel/python/index.js';
import { unifiedDiffPieces } from '../modules/_file-diff.js';
import { cleanKwargs } from '../modules/_invalid-kwargs.js';
import { interfaces } from '../modules/_network-ifaces.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

type Lines = unknown;

/** `"\n".join(difflib.unified_diff(old, new, lineterm=""))`. */
function diffText(oldLines: Lines, newLines: Lines): string {
  const list = (v: Lines): string[] =>
    Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [...v] : [];
  const pieces = unifiedDiffPieces(list(oldLines), list(newLines));
  return pieces.map((p, i) => (i < 2 || p.startsWith('@@') ? p.replace(/\n$/, '') : p)).join('\n');
}

const same = (a: Lines, b: Lines): boolean => JSON.stringify(a) === JSON.stringify(b);
const empty = (v: Lines): boolean => !pyTruthy(v ?? null);

/** Salt catches only AttributeError (and KeyError in `system`) and reports it as the comment. */
function caught(err: unknown, names: readonly string[]): string | undefined {
  return err instanceof Error && names.includes(err.name) ? err.message : undefined;
}

type Kw = Record<string, unknown>;

/** The test-mode comment for a text that would change (`added` when there is none yet); undefined if none would. */
function pending(old: Lines, built: Lines, added: string, updated: string): string | undefined {
  if (same(old, built)) return undefined;
  return empty(old) && !empty(built) ? added : `${updated}:\n${diffText(old, built)}`;
}

async function interfaceIsUp(name: string): Promise<boolean> {
  const ifaces = await interfaces();
  const found = ifaces[name];
  if (found) return pyTruthy(found.up ?? null);
  for (const [iface, data] of Object.entries(ifaces)) {
    const labelled = (list: unknown): boolean =>
      Array.isArray(list) && list.some((d) => (d as Record<string, unknown>).label === name);
    if (labelled(data.secondary)) return true;
    if (iface === 'lo') {
      for (const fam of ['inet', 'inet6']) {
        const list = data[fam];
        if (Array.isArray(list) && list.length > 1 && labelled(list)) return true;
      }
    }
  }
  return false;
}

/** The interface (and bond) file part of `managed`: sets the comment, result and changes. */
async function interfacePart(
  ctx: StateContext,
  ret: StateReturn,
  name: string,
  type: string,
  enabled: unknown,
  kw: Kw,
): Promise<void> {
  const changes = ret.changes as Record<string, unknown>;
  const old = await ctx.call('ip.get_interface', [name]);
  const built = await ctx.call('ip.build_interface', [name, type, enabled], kw);
  const ifaceNote = pending(
    old,
    built,
    `Interface ${name} is set to be added.`,
    `Interface ${name} is set to be updated`,
  );
  if (kw.test) {
    if (ifaceNote !== undefined) Object.assign(ret, { result: null, comment: ifaceNote });
  } else if (empty(old) && !empty(built)) {
    ret.comment = `Interface ${name} added.`;
    changes.interface = 'Added network interface.';
  } else if (!same(old, built)) {
    ret.comment = `Interface ${name} updated.`;
    changes.interface = diffText(old, built);
  }
  if (type !== 'bond') return;
  const oldBond = await ctx.call('ip.get_bond', [name]);
  const newBond = await ctx.call('ip.build_bond', [name], kw);
  const bondNote = pending(
    oldBond,
    newBond,
    `Bond interface ${name} is set to be added.`,
    `Bond interface ${name} is set to be updated`,
  );
  if (kw.test) {
    if (bondNote !== undefined) Object.assign(ret, { result: null, comment: bondNote });
  } else if (empty(oldBond) && !empty(newBond)) {
    ret.comment = `Bond interface ${name} added.`;
    changes.bond = `Added bond ${name}.`;
  } else if (!same(oldBond, newBond)) {
    ret.comment = `Bond interface ${name} updated.`;
    changes.bond = diffText(oldBond, newBond);
  }
}

async function enslave(ctx: StateContext, ret: StateReturn, name: string, slaves: unknown): Promise<void> {
  const present = String(await ctx.call('cmd.run', [['cat', `/sys/class/net/${name}/bonding/slaves`]]))
    .split(/\s+/)
    .filter(Boolean);
  const desired = Array.isArray(slaves) ? slaves.map(String) : pyStr(slaves).split(/\s+/).filter(Boolean);
  const missing = [...new Set(desired)].filter((s) => !present.includes(s));
  if (missing.length === 0 || ctx.grains.os_family === 'Suse') return;
  const ifenslave = String(await ctx.call('cmd.run', [['which', 'ifenslave']])).trim();
  if (ifenslave) await ctx.call('cmd.run', [[ifenslave, name, ...missing]], { python_shell: false });
  else ctx.log.error("Command 'ifenslave' not found");
  (ret.changes as Record<string, unknown>).enslave =
    `Added slaves '${missing.join(' ')}' to master '${name}'`;
}

async function bringUpDown(
  ctx: StateContext,
  ret: StateReturn,
  name: string,
  type: string,
  enabled: unknown,
  kw: Kw,
): Promise<boolean> {
  const changes = ret.changes as Record<string, unknown>;
  const up = await interfaceIsUp(name);
  if ('noifupdown' in kw) return up;
  if (pyTruthy(enabled ?? null)) {
    if (up && Object.keys(changes).length > 0) {
      await ctx.call('ip.down', [name, type]);
      await ctx.call('ip.up', [name, type]);
      changes.status = `Interface ${name} restart to validate`;
    } else if (!up) {
      await ctx.call('ip.up', [name, type]);
      changes.status = `Interface ${name} is up`;
    }
  } else if (up) {
    await ctx.call('ip.down', [name, type]);
    changes.status = `Interface ${name} down`;
  }
  return up;
}

const managed = defineState({
  args: (z) => z.object({ name: z.unknown().transform(pyStr), enabled: z.unknown().default(true) }),
  varkw: true,
  doc: 'Ensure that the named interface is configured properly (type: eth, bond, bridge, slave, vlan, pppoe, source).',
  async run(ctx, a, extra): Promise<StateReturn> {
    const { name, enabled } = a;
    const ret: StateReturn = { name, changes: {}, result: true, comment: `Interface ${name} is up to date.` };
    const kw: Kw = cleanKwargs(extra.kwargs);
    if (!('test' in kw)) kw.test = ctx.test;
    const type = 'type' in kw ? pyStr(kw.type) : 'eth';
    delete kw.type;
    if ('addr' in kw) {
      const hwaddr = kw.addr;
      delete kw.addr;
      let msg = "'addr' is not a valid argument name, ";
      if (!('hwaddr' in kw)) {
        msg += "its value has been assigned to 'hwaddr' instead.";
        kw.hwaddr = hwaddr;
      } else msg += "it has been ignored in favor of 'hwaddr'.";
      ret.warnings = [`${msg} Update your SLS file to get rid of this warning.`];
    }
    try {
      await interfacePart(ctx, ret, name, type, enabled, kw);
    } catch (err) {
      const msg = caught(err, ['AttributeError']);
      if (msg === undefined) throw err;
      return { ...ret, result: false, comment: msg };
    }
    if (type === 'source' || kw.test) return ret;
    if (name.includes('range')) {
      if (Object.keys(ret.changes as Kw).length > 0) {
        try {
          ret.result = pyTruthy((await ctx.call('service.restart', ['network'])) ?? null);
          ret.comment = 'network restarted for change of ranged interfaces';
        } catch (err) {
          ret.result = false;
          ret.comment = err instanceof Error ? err.message : String(err);
        }
        return ret;
      }
      return { ...ret, result: true, comment: 'no change, passing it' };
    }
    let up: boolean;
    try {
      up = await bringUpDown(ctx, ret, name, type, enabled, kw);
    } catch (err) {
      return { ...ret, result: false, comment: err instanceof Error ? err.message : String(err) };
    }
    if (type === 'bond' && !('noifupdown' in kw) && pyTruthy(kw.slaves ?? null))
      await enslave(ctx, ret, name, kw.slaves);
    if (pyTruthy(enabled ?? null) && up) return ret;
    await ctx.call('saltutil.refresh_grains', []);
    return ret;
  },
});

const routes = defineState({
  args: (z) => z.object({ name: z.unknown().transform(pyStr) }),
  varkw: true,
  doc: 'Manage network interface static routes (routes: a list of {name, ipaddr, netmask, gateway, metric}).',
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = a.name;
    const ret: StateReturn = {
      name,
      changes: {},
      result: true,
      comment: `Interface ${name} routes are up to date.`,
    };
    const kw: Kw = cleanKwargs(extra.kwargs);
    if (!('test' in kw)) kw.test = ctx.test;
    let apply = false;
    try {
      const old = await ctx.call('ip.get_routes', [name]);
      const built = await ctx.call('ip.build_routes', [name], kw);
      if (kw.test) {
        const comment = pending(
          old,
          built,
          `Interface ${name} routes are set to be added.`,
          `Interface ${name} routes are set to be updated`,
        );
        return comment === undefined ? ret : { ...ret, result: null, comment };
      }
      if (empty(old) && !empty(built)) {
        apply = true;
        ret.comment = `Interface ${name} routes added.`;
        ret.changes = { network_routes: `Added interface ${name} routes.` };
      } else if (!same(old, built)) {
        apply = true;
        ret.comment = `Interface ${name} routes updated.`;
        ret.changes = { network_routes: diffText(old, built) };
      }
      if (apply) await ctx.call('ip.apply_network_settings', [], kw);
    } catch (err) {
      const msg = caught(err, ['AttributeError']);
      if (msg === undefined) throw err;
      return { ...ret, result: false, comment: msg };
    }
    return ret;
  },
});

const system = defineState({
  args: (z) => z.object({ name: z.unknown().transform(pyStr) }),
  varkw: true,
  doc: 'Ensure that global network settings are configured properly (enabled, hostname, apply_hostname, ...).',
  async run(ctx, a, extra): Promise<StateReturn> {
    const ret: StateReturn = {
      name: a.name,
      changes: {},
      result: true,
      comment: 'Global network settings are up to date.',
    };
    const kw: Kw = cleanKwargs(extra.kwargs);
    kw.test = ctx.test;
    try {
      const old = await ctx.call('ip.get_network_settings', []);
      const built = await ctx.call('ip.build_network_settings', [], kw);
      if (ctx.test) {
        const comment = pending(
          old,
          built,
          'Global network settings are set to be added.',
          'Global network settings are set to be updated',
        );
        return comment === undefined ? ret : { ...ret, result: null, comment };
      }
      let apply = false;
      if (empty(old) && !empty(built)) {
        apply = true;
        ret.changes = { network_settings: 'Added global network settings.' };
      } else if (!same(old, built)) {
        apply = true;
        ret.changes = { network_settings: diffText(old, built) };
      }
      if (apply) await ctx.call('ip.apply_network_settings', [], kw);
    } catch (err) {
      const msg = caught(err, ['AttributeError', 'KeyError']);
      if (msg === undefined) throw err;
      return { ...ret, result: false, comment: msg };
    }
    return ret;
  },
});

export default defineStateModule({
  name: 'network',
  doc: 'Network interface, route and global settings management over the ip module (network.managed, routes, system).',
  functions: { managed, routes, system },
});
