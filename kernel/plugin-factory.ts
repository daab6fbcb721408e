/**
 * Plugins that take options: `definePluginFactory(name, schema, build)` gives a function
 * `(options) => KernelPlugin` that validates its options with the plugin's own zod schema
 * before building the plugin, so `plugins: [acme({ url: 5 })]` in `master.config.ts` fails at
 * config load with the plugin and the option named.
 */
import type { z } from 'zod';
import { SALT_ERR_PLUGIN_OPTIONS } from './errors.js';
import type { KernelPlugin } from './plugin.js';

/** `path: message` for each issue, joined: what an operator needs to fix the options. */
export function summarizeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(options)'}: ${i.message}`).join('; ');
}

/**
 * @example
 * export const acme = definePluginFactory('tsalt-plugin-acme', z.object({ url: z.url() }), (opts) => ({
 *   name: 'tsalt-plugin-acme',
 *   apply(api) { api.log.info({ url: opts.url }, 'acme ready'); },
 * }));
 * // master.config.ts: plugins: [acme({ url: 'https://acme.example' })]
 */
export function definePluginFactory<S extends z.ZodType>(
  name: string,
  schema: S,
  build: (options: z.output<S>) => KernelPlugin,
): (options?: z.input<S>) => KernelPlugin {
  return (options) => {
    const parsed = schema.safeParse(options ?? {});
    if (!parsed.success) throw new SALT_ERR_PLUGIN_OPTIONS(name, summarizeIssues(parsed.error.issues));
    return build(parsed.data);
  };
}
