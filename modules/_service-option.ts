/**
 * How Salt's service modules (mattermost, msteams, ...) read their settings:
 * `config.get('<service>.<key>') or config.get('<service>:<key>')`, the dotted option first,
 * then the key under the service's mapping (minion config, grains or pillar).
 */
import type { ExecContext } from '../kernel/index.js';
import { pyTruthy } from '../kernel/python/index.js';

export async function serviceOption(ctx: ExecContext, service: string, key: string): Promise<unknown> {
  const dotted = await ctx.call('config.get', [`${service}.${key}`]);
  if (pyTruthy(dotted)) return dotted;
  return ctx.call('config.get', [`${service}:${key}`]);
}
