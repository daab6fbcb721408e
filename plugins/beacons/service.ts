/**
 * The `service` beacon (Salt's `salt/beacons/service.py`): asks `service.status` for each
 * configured service and fires `{<name>: {running}, service_name}` tagged with the name, every
 * run or (`onchangeonly`) when the status changes; `delay` holds a change's event back that
 * many seconds, `emitatstartup: False` skips the first, and `uncleanshutdown: <pid file>` adds
 * whether a stopped service left its pid file behind.
 *
 *   beacons:
 *     service:
 *       - services:
 *           nginx: { onchangeonly: True, delay: 30, uncleanshutdown: /run/nginx.pid }
 *           salt-master: {}
 */
import { existsSync } from 'node:fs';
import { defineBeacon } from '../../kernel/index.js';
import { pyTruthy } from '../../kernel/python/index.js';
import { pyRound } from '../../modules/_ps-stats.js';

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the beacon last saw of a service: its event body, and when a delayed change began. */
interface Last {
  body: Record<string, unknown>;
  since?: number;
}

export default defineBeacon({
  name: 'service',
  doc: 'Fire the running status of the configured services.',
  validate(config) {
    if (!('services' in config)) return 'Configuration for service beacon requires services.';
    const services = config.services;
    if (!isMap(services)) return 'Services configuration item for service beacon must be a dictionary.';
    for (const v of Object.values(services))
      if (!isMap(v)) return 'Configuration for service beacon must be a list of dictionaries.';
    return true;
  },
  async beacon(ctx, config) {
    const last = (ctx.state.get('last') as Map<string, Last> | undefined) ?? new Map<string, Last>();
    ctx.state.set('last', last);
    const events = [];
    const services = isMap(config.services) ? config.services : {};
    for (const [service, raw] of Object.entries(services)) {
      const opts = isMap(raw) ? raw : {};
      const body: Record<string, unknown> = { running: await ctx.call('service.status', [service]) };
      const event = { [service]: body, service_name: service, tag: service };
      const now = Date.now() / 1000;
      const emitatstartup = 'emitatstartup' in opts ? pyTruthy(opts.emitatstartup) : true;
      const delay = Number(opts.delay ?? 0);
      if ('uncleanshutdown' in opts && !body.running)
        body.uncleanshutdown = existsSync(String(opts.uncleanshutdown));
      if (opts.onchangeonly !== true) {
        events.push(event);
        continue;
      }
      let seen = last.get(service);
      if (!seen) {
        seen = { body };
        last.set(service, seen);
        if (!emitatstartup) continue;
        if (delay > 0) seen.since = now;
        else events.push(event);
      }
      if (seen.body.running !== body.running) {
        seen = { body };
        last.set(service, seen);
        if (delay > 0) seen.since = now;
        else events.push(event);
      }
      if (seen.since !== undefined && pyRound(now - seen.since, 0) > delay) {
        seen.since = undefined;
        events.push(event);
      }
    }
    return events;
  },
});
