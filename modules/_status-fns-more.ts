/**
 * More of Salt's `status` module, merged into `modules/status.ts`: `custom` (the keys the
 * `status.<fn>.custom` options pick from other status functions), `master` (is there an
 * established connection to the master's publish port; an event when that is not as expected),
 * `ping_master` and `proxy_reconnect` (tsalt runs no proxy minions: False, as Salt without one).
 */
import { lookup } from 'node:dns/promises';
import { connect } from 'node:net';
import { defineFunction, type ExecContext } from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { activeTcp } from './_network-ifaces.js';

/** Salt's `host_to_ips`: every address getaddrinfo gives for the host, or undefined when it fails. */
async function hostToIps(host: string): Promise<string[] | undefined> {
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    return [...new Set(found.map((a) => a.address))];
  } catch {
    return undefined;
  }
}

/** Salt's `remote_port_tcp`: remote addresses of established TCP connections to `port`. */
function remotePortTcp(port: number): Set<string> {
  return new Set(
    Object.values(activeTcp())
      .filter((c) => c.remote_port === port)
      .map((c) => String(c.remote_addr)),
  );
}

async function fire(ctx: ExecContext, master: string, type: string): Promise<void> {
  try {
    await ctx.call('event.fire', [{ master }, `__master_${type}`]);
  } catch (err) {
    ctx.log.debug({ err }, 'could not fire the master event');
  }
}

async function custom(ctx: ExecContext): Promise<Record<string, unknown>> {
  const ret: Record<string, unknown> = {};
  const conf = (await ctx.call('config.dot_vals', ['status'])) as Record<string, unknown>;
  for (const [key, val] of Object.entries(conf)) {
    const func = key.split('.').slice(0, -1).join('.');
    if (func === 'status.custom') continue;
    if (!(await ctx.functions.get(func))) {
      ctx.log.warn(`custom status ${func} isn't loaded`);
      continue;
    }
    const vals = (await ctx.call(func)) as Record<string, unknown>;
    for (const item of Array.isArray(val) ? val.map(String) : []) {
      if (vals && typeof vals === 'object' && Object.hasOwn(vals, item)) ret[item] = vals[item];
      else {
        ctx.log.warn(`val ${item} not in return of ${func}`);
        ret[item] = 'UNKNOWN';
      }
    }
  }
  return ret;
}

/** Whether the master's request port takes a TCP connection within the minion's `auth_timeout`. */
function reachable(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect({ host, port, timeout: timeoutMs });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.once('connect', () => done(true));
    sock.once('timeout', () => done(false));
    sock.once('error', () => done(false));
  });
}

export const moreStatusFunctions = {
  custom: defineFunction({
    doc: `Return a custom composite of status data and info for this minion, based on the minion
config file. An example config like might be:

    status.cpustats.custom: [ 'cpu', 'ctxt', 'btime', 'processes' ]

Where status refers to status.py, cpustats is the function where we get our data, and custom is
this function. It is followed by a list of keys that we want returned. By default, nothing is
returned.

CLI Example:

    salt '*' status.custom`,
    run: (ctx) => custom(ctx),
  }),
  master: defineFunction({
    args: (z) => z.object({ master: z.string().nullable().optional(), connected: pyFlag(z, true) }),
    doc: `Return the connection status with master. Fire an event if the connection to master is
not as expected. This function is meant to be run via a scheduled job from the minion.

CLI Example:

    salt '*' status.master`,
    run: async (ctx, a) => {
      const ips = a.master ? await hostToIps(a.master) : undefined;
      if (!ips?.length) return null;
      const port = Number((await ctx.call('config.get', ['publish_port'], { default: 4505 })) ?? 4505);
      const connected = remotePortTcp(port);
      const status = ips.some((ip) => connected.has(ip));
      if (status !== a.connected) await fire(ctx, a.master!, status ? 'connected' : 'disconnected');
      return status;
    },
  }),
  ping_master: defineFunction({
    args: (z) => z.object({ master: z.string().nullable() }),
    doc: `Sends ping request to the given master. Fires '__master_failback' event on success.
Returns bool result.

CLI Example:

    salt '*' status.ping_master localhost`,
    run: async (ctx, a) => {
      if (!a.master) return false;
      const ips = await hostToIps(a.master);
      if (!ips?.length) return false;
      const port = Number(ctx.opts.master_port ?? 4506);
      const timeout = Number(ctx.opts.auth_timeout ?? 60) * 1000;
      const ok = await reachable(ips[0]!, port, timeout);
      if (ok) await fire(ctx, a.master, 'failback');
      return ok;
    },
  }),
  proxy_reconnect: defineFunction({
    args: (z) => z.object({ proxy_name: z.string(), opts: z.unknown().optional() }),
    doc: `Forces proxy minion reconnection when not alive.

proxy_name: the virtual name of the proxy module.
opts: opts dictionary. Not intended for CLI usage.

CLI Example:

    salt '*' status.proxy_reconnect rest_sample`,
    // tsalt has no proxy modules (Salt's __proxy__): without them Salt answers False
    run: () => false,
  }),
};
