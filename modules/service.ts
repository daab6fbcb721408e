/**
 * Salt's `service` execution module: start, stop and query system services, and set which
 * start at boot. Two backends as in Salt: systemd (`systemd_service.py`) when systemd is PID 1,
 * else Debian's sysvinit scripts (`debian_service.py`). The systemd-only functions (`show`,
 * `get_running`, `masked`, `mask`, `unmask`, `systemctl_reload`) are not available on sysvinit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SaltError,
  type VirtualContext,
} from '../kernel/index.js';
import { fnmatch } from './_fnmatch.js';
import * as deb from './_service-debian.js';
import * as sd from './_service-systemd.js';
import { which } from './_which.js';

const DEBIAN_OSES = ['Debian', 'Raspbian', 'Devuan', 'NILinuxRT'];

function virtual(ctx: VirtualContext) {
  if (sd.systemdBooted()) return true as const;
  const os = ctx.grains.os;
  if (typeof os === 'string' ? DEBIAN_OSES.includes(os) : deb.hasInitScript('')) return true as const;
  return {
    ok: false as const,
    reason: 'The debian_service module could not be loaded: unsupported OS family and/or systemd running.',
  };
}

function systemdOnly(fun: string): void {
  if (!sd.systemdBooted())
    throw new SaltError('SALT_ERR_LOADER_NOT_AVAILABLE', `'service.${fun}' is not available.`);
}

const getAll = (): Promise<string[]> => (sd.systemdBooted() ? sd.getAll() : deb.getAll());
const getEnabled = (): Promise<string[]> =>
  sd.systemdBooted() ? sd.getByState('enabled') : deb.getEnabled();
async function getDisabled(): Promise<string[]> {
  if (sd.systemdBooted()) return sd.getByState('disabled');
  const enabled = new Set(await deb.getEnabled());
  return (await deb.getAll()).filter((n) => !enabled.has(n));
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
  return sd.systemdBooted() ? sd.isActive(ctx, name) : deb.serviceCmd(ctx, name, 'status');
}

function action(verb: string, sdVerb: string, doc: string) {
  return defineFunction({
    args: (z) => z.object({ name: z.string() }),
    varkw: true,
    doc,
    run: (ctx, { name }) =>
      sd.systemdBooted() ? sd.act(ctx, sdVerb, name) : deb.serviceCmd(ctx, name, verb),
  });
}

export default defineModule({
  name: 'service',
  doc: 'Start, stop and query system services (systemd, or sysvinit scripts on Debian).',
  virtual,
  functions: {
    get_all: defineFunction({ doc: 'Return all available boot services.', run: () => getAll() }),
    get_enabled: defineFunction({ doc: 'Return the services that start at boot.', run: () => getEnabled() }),
    get_disabled: defineFunction({
      doc: 'Return the services that are installed but do not start at boot.',
      run: () => getDisabled(),
    }),
    available: defineFunction({
      args: (z) => z.object({ name: z.string() }),
      doc: 'True when the named service is available.',
      run: async (_ctx, { name }) => (await getAll()).includes(name),
    }),
    missing: defineFunction({
      args: (z) => z.object({ name: z.string() }),
      doc: 'True when the named service is not available.',
      run: async (_ctx, { name }) => !(await getAll()).includes(name),
    }),
    status: defineFunction({
      args: (z) => z.object({ name: z.string(), sig: z.string().nullish() }),
      varkw: true,
      doc: 'True when the service runs; a glob name gives {service: bool}. With sig, look for a matching process.',
      run: async (ctx, { name, sig }) => {
        if (sig) return pidMatches(sig);
        const glob = /\*|\?|\[.+\]/.test(name);
        const services = glob ? (await getAll()).filter((s) => fnmatch(s, name)) : [name];
        const results: Record<string, boolean> = {};
        for (const s of services) results[s] = await statusOne(ctx, s);
        return glob ? results : (results[name] ?? false);
      },
    }),
    start: action('start', 'start', 'Start the specified service.'),
    stop: action('stop', 'stop', 'Stop the specified service.'),
    restart: action('restart', 'restart', 'Restart the named service.'),
    reload: action('reload', 'reload', 'Reload the named service.'),
    force_reload: action('force-reload', 'force-reload', 'Force-reload the named service.'),
    enable: defineFunction({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Enable the named service to start at boot.',
      run: (ctx, { name }) => (sd.systemdBooted() ? sd.act(ctx, 'enable', name) : deb.enable(name)),
    }),
    disable: defineFunction({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Disable the named service to start at boot.',
      run: (ctx, { name }) => (sd.systemdBooted() ? sd.act(ctx, 'disable', name) : deb.disable(name)),
    }),
    enabled: defineFunction({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'True when the named service starts at boot.',
      run: async (ctx, { name }) =>
        sd.systemdBooted() ? sd.isEnabled(ctx, name) : (await getEnabled()).includes(name),
    }),
    disabled: defineFunction({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'True when the named service does not start at boot.',
      run: async (ctx, { name }) =>
        sd.systemdBooted() ? !(await sd.isEnabled(ctx, name)) : (await getDisabled()).includes(name),
    }),
    get_running: defineFunction({
      doc: "Return a list of all running services, so far as systemd is concerned (systemd only).\n\nCLI Example: salt '*' service.get_running",
      run: (ctx) => {
        // Salt's systemd module also loads "offline" (no PID 1 systemd, systemctl installed)
        if (!which('systemctl')) systemdOnly('get_running');
        return sd.getRunning(ctx);
      },
    }),
    show: defineFunction({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Show the properties of a unit (systemd only).',
      run: (ctx, { name }) => {
        systemdOnly('show');
        return sd.show(ctx, name);
      },
    }),
    masked: defineFunction({
      args: (z) => z.object({ name: z.string(), runtime: z.boolean().default(false) }),
      varkw: true,
      doc: 'True when the unit is masked (systemd only).',
      run: (ctx, { name, runtime }) => {
        systemdOnly('masked');
        return sd.isMasked(ctx, name, runtime);
      },
    }),
    mask: defineFunction({
      args: (z) => z.object({ name: z.string(), runtime: z.boolean().default(false) }),
      varkw: true,
      doc: 'Mask the unit (systemd only).',
      run: (ctx, { name, runtime }) => {
        systemdOnly('mask');
        return sd.act(ctx, 'mask', name, runtime);
      },
    }),
    unmask: defineFunction({
      args: (z) => z.object({ name: z.string(), runtime: z.boolean().default(false) }),
      varkw: true,
      doc: 'Unmask the unit (systemd only).',
      run: (ctx, { name, runtime }) => {
        systemdOnly('unmask');
        return sd.act(ctx, 'unmask', name, runtime);
      },
    }),
    systemctl_reload: defineFunction({
      doc: 'Reload the systemd manager configuration (systemd only).',
      run: async (ctx) => {
        systemdOnly('systemctl_reload');
        return (await sd.systemctl(ctx, '--system', 'daemon-reload')).retcode === 0;
      },
    }),
  },
});
