/**
 * A returner's validated options from its context. The master may hand a job store a context
 * whose `options` were never gathered (`{}`); then they are gathered from the config here.
 */
import type { z } from 'zod';
import { type ReturnerContext, SALT_ERR_RETURNER_OPTIONS } from '../../kernel/index.js';
import { gatherReturnerOptions } from '../../kernel/util.js';

const cache = new WeakMap<object, unknown>();

export function contextOptions<O>(name: string, schema: z.ZodType<O>, ctx: ReturnerContext<unknown>): O {
  const given = ctx.options as Readonly<Record<string, unknown>> | undefined;
  const key = given ?? ctx.opts;
  const hit = cache.get(key);
  if (hit) return hit as O;
  const raw = given && Object.keys(given).length > 0 ? given : gatherReturnerOptions(name, ctx.opts);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const summary = parsed.error.issues
      .map((issue) => `${issue.path.length ? issue.path.join('.') : '(options)'}: ${issue.message}`)
      .join('; ');
    throw new SALT_ERR_RETURNER_OPTIONS(name, summary);
  }
  cache.set(key, parsed.data);
  return parsed.data;
}
