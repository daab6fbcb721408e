/**
 * Salt's `service` execution module: start, stop and query system services, and set which
 * start at boot. Two backends as in Salt: systemd (`systemd_service.py`) when systemd is PID 1,
 * else Debian's sysvinit scripts (`debian_service.py`). Where systemctl is installed but systemd
 * does not run (a container), Salt loads both under `service` and the first loaded wins each
 * name: on Debian the sysvinit functions, with the systemd-only ones (`offline`, `show`,
 * `mask`, ...) added in systemd's "offline" mode; elsewhere the systemd module alone.
 * `virtual()` decides once, as Salt's loader does, and `functions` is the table it chose.
 */
import { readdirSync, readFileSync } from 'node:fs';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  type FunctionSpec,
  type VirtualContext,
} from '../kernel/index.js';
import { fnmatch } from './_fnmatch.js';
import * as deb from './_service-debian.js';
import * as sd from './_service-systemd.js';
import { SYSTEMD_ONLY } from './_service-systemd-only.js';

const DEBIAN_OSES = ['Debian', 'Raspbian', 'Devuan', 'NILinuxRT'];

/** Whether the common functions use systemctl (systemd as PID 1, or offline off Debian); set by `virtual()`. */
let useSystemd = sd.systemdBooted();

function isDebian(ctx: VirtualContext): boolean {
  const os = ctx.grains.os;
  return typeof os === 'string' ? DEBIAN_OSES.includes(os) : deb.hasInitScript('');
}

const getAll = (ctx: ExecContext): Promise<string[]> => (useSystemd ? sd.getAll() : deb.getAll(ctx));
const getEnabled = (ctx: ExecContext): Promise<string[]> =>
  useSystemd ? sd.getByState('enabled') : deb.getEnabled(ctx);
async function getDisabled(ctx: ExecContext): Promise<string[]> {
  if (useSystemd) return sd.getByState('disabled');
  const enabled = new Set(await deb.getEnabled(ctx));
  return (await deb.getAll(ctx)).filter((n) => !enabled.has(n));
}

/** Salt's `status.pid`: whether a process whose command line matches `sig` (a regex) runs. */
function pidMatches(sig: string): boolean {
  const re = new RegExp(sig);
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (cmd && re.test(cmd)) return true;
    } catch {
      // gone
    }
  }
  return false;
}

async function statusOne(ctx: ExecContext, name: string): Promise<boolean> {
  return useSystemd ? sd.isActive(ctx, name) : deb.serviceCmd(ctx, name, 'status');
}

function action(verb: string, sdVerb: string, doc: string) {
  return defineFunction({
    args: (z) => z.object({ name: z.string() }),
    doc,
    run: (ctx, { name }) => (useSystemd ? sd.act(ctx, sdVerb, name) : deb.serviceCmd(ctx, name, verb)),
  });
}

/** The functions both of Salt's backends have. */
const COMMON: Record<string, FunctionSpec> = {
  get_all: defineFunction({ doc: 'Return all available boot services.', run: (ctx) => getAll(ctx) }),
  get_enabled: defineFunction({
    doc: 'Return the services that start at boot.',
    run: (ctx) => getEnabled(ctx),
  }),
  get_disabled: defineFunction({
    doc: 'Return the services that are installed but do not start at boot.',
    run: (ctx) => getDisabled(ctx),
  }),
  available: defineFunction({
    args: (z) => z.object({ name: z.string() }),
    doc: 'True when the named service is available.',
    run: async (ctx, { name }) => (await getAll(ctx)).includes(name),
  }),
  missing: defineFunction({
    args: (z) => z.object({ name: z.string() }),
    doc: 'True when the named service is not available.',
    run: async (ctx, { name }) => !(await getAll(ctx)).includes(name),
  }),
  status: defineFunction({
    args: (z) => z.object({ name: z.string(), sig: z.string().nullish() }),
    doc: 'True when the service runs; a glob name gives {service: bool}. With sig, look for a matching process.',
    run: async (ctx, { name, sig }) => {
      if (sig) return pidMatches(sig);
      const glob = /\*|\?|\[.+\]/.test(name);
      const services = glob ? (await getAll(ctx)).filter((s) => fnmatch(s, name)) : [name];
      const results: Record<string, boolean> = {};
      for (const s of services) results[s] = await statusOne(ctx, s);
      return glob ? results : (results[name] ?? false);
    },
  }),
  start: action('start', 'start', 'Start the specified service.'),
  stop: action('stop', 'stop', 'Stop the specified service.'),
  restart: action('restart', 'restart', 'Restart the named service.'),
  reload: { ...action('reload', 'reload', 'Reload the named service.'), pyName: 'reload_' },
  force_reload: action('force-reload', 'force-reload', 'Force-reload the named service.'),
  enable: defineFunction({
    args: (z) => z.object({ name: z.string() }),
    varkw: true,
    doc: 'Enable the named service to start at boot.',
    run: (ctx, { name }) => (useSystemd ? sd.act(ctx, 'enable', name) : deb.enable(ctx, name)),
  }),
  disable: defineFunction({
    args: (z) => z.object({ name: z.string() }),
    varkw: true,
    doc: 'Disable the named service to start at boot.',
    run: (ctx, { name }) => (useSystemd ? sd.act(ctx, 'disable', name) : deb.disable(ctx, name)),
  }),
  enabled: defineFunction({
    args: (z) => z.object({ name: z.string() }),
    varkw: true,
    doc: 'True when the named service starts at boot.',
    run: async (ctx, { name }) =>
      useSystemd ? sd.isEnabled(ctx, name) : (await getEnabled(ctx)).includes(name),
  }),
  disabled: defineFunction({
    args: (z) => z.object({ name: z.string() }),
    doc: 'True when the named service does not start at boot.',
    run: async (ctx, { name }) =>
      useSystemd ? !(await sd.isEnabled(ctx, name)) : (await getDisabled(ctx)).includes(name),
  }),
};

/** What `virtual()` chose (everything before it runs, so the loader can check every spec). */
let table: Readonly<Record<string, FunctionSpec>> = { ...COMMON, ...SYSTEMD_ONLY };

export default defineModule({
  name: 'service',
  doc: 'Start, stop and query system services (systemd, or sysvinit scripts on Debian).',
  virtual(ctx: VirtualContext) {
    useSystemd = sd.systemdBooted() || (sd.offline() && !isDebian(ctx));
    if (useSystemd) table = { ...COMMON, ...SYSTEMD_ONLY };
    else if (isDebian(ctx)) table = sd.offline() ? { ...COMMON, ...SYSTEMD_ONLY } : COMMON;
    else
      return {
        ok: false as const,
        reason:
          'The debian_service module could not be loaded: unsupported OS family and/or systemd running.',
      };
    return true as const;
  },
  get functions() {
    return table;
  },
});
