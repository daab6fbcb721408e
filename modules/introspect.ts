/**
 * Salt's `introspect` execution module (`salt/modules/introspect.py`): which packages own the
 * running and the enabled services (through `service.execs`, `service.get_enabled`,
 * `service.show` and `pkg.owner`), and those services as a highstate structure.
 */
import { accessSync, constants } from 'node:fs';
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pyTruthy } from '../kernel/python/index.js';
import { openFiles } from './_proc-open-files.js';

type Owners = Record<string, unknown>;

const DEFAULT_EXCLUDE = ['/dev', '/home', '/media', '/proc', '/run', '/sys/', '/tmp', '/var'];

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The package `pkg.owner` names for one path (Salt takes the first value of its answer). */
async function ownerOf(ctx: ExecContext, path: string): Promise<unknown> {
  const pkg = await ctx.call('pkg.owner', [path]);
  if (pkg !== null && typeof pkg === 'object') return Object.values(pkg)[0];
  return pkg;
}

async function runningOwners(ctx: ExecContext, exclude: unknown): Promise<Owners> {
  const bad = Array.isArray(exclude) ? exclude.map(String) : typeof exclude === 'string' ? [...exclude] : [];
  const ret: Owners = {};
  const files = openFiles();
  const execs = (await ctx.call('service.execs', [])) as Record<string, unknown>;
  for (const path of files) {
    if (bad.some((dir) => path.startsWith(dir))) continue;
    if (!executable(path)) continue;
    for (const [service, exec] of Object.entries(execs))
      if (exec === path) ret[service] = await ownerOf(ctx, path);
  }
  return ret;
}

async function enabledOwners(ctx: ExecContext): Promise<Owners> {
  const ret: Owners = {};
  const services = (await ctx.call('service.get_enabled', [])) as string[];
  for (const service of services) {
    const data = (await ctx.call('service.show', [service])) as Record<string, unknown>;
    const start = data.ExecStart;
    if (start === undefined) continue;
    const path =
      start !== null && typeof start === 'object' ? (start as Record<string, unknown>).path : undefined;
    ret[service] = await ownerOf(ctx, String(path));
  }
  return ret;
}

type StateItem = string | Record<string, unknown>;

export default defineModule({
  name: 'introspect',
  doc: 'Introspection of the minion, returned in shapes Salt states can use.',
  functions: {
    running_service_owners: defineFunction({
      args: (z) => z.object({ exclude: z.unknown().default(DEFAULT_EXCLUDE) }),
      doc: 'The packages that own the executables of the running services; open files under the `exclude` prefixes are skipped.\n\nCLI Example:\n\n    salt myminion introspect.running_service_owners',
      run: (ctx, a) => runningOwners(ctx, a.exclude),
    }),
    enabled_service_owners: defineFunction({
      doc: 'The packages that own the start commands of the enabled services.\n\nCLI Example:\n\n    salt myminion introspect.enabled_service_owners',
      run: (ctx) => enabledOwners(ctx),
    }),
    service_highstate: defineFunction({
      args: (z) => z.object({ requires: z.unknown().default(true) }),
      doc: 'The running and enabled services as a highstate structure, each requiring its package unless requires=False.\n\nCLI Example:\n\n    salt myminion introspect.service_highstate\n    salt myminion introspect.service_highstate requires=False',
      run: async (ctx, a) => {
        const requires = pyTruthy(a.requires);
        const ret: Record<string, { service: StateItem[] }> = {};
        const running = await runningOwners(ctx, DEFAULT_EXCLUDE);
        for (const [service, pkg] of Object.entries(running)) {
          ret[service] = { service: ['running'] };
          if (requires) ret[service].service.push({ require: { pkg } });
        }
        const enabled = await enabledOwners(ctx);
        for (const [service, pkg] of Object.entries(enabled)) {
          const items = ret[service]?.service ?? [];
          items.push({ enabled: true });
          ret[service] = { service: items };
          if (!requires) continue;
          const has = items.some((i) => typeof i === 'object' && Object.keys(i)[0] === 'require');
          if (!has) items.push({ require: { pkg } });
        }
        return ret;
      },
    }),
  },
});
