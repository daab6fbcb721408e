/**
 * The `service` functions only Salt's systemd module has (`salt/modules/systemd_service.py`):
 * `offline`, `get_static`, `get_running`, `show`, `masked`, `mask`, `unmask`,
 * `systemctl_reload`, `execs` and `firstboot`. Salt loads that module when systemd is PID 1 and
 * also "offline", when `systemctl` is installed but systemd is not running (a container): there
 * `systemctl` still reads and writes unit files but cannot reach a manager, and Salt refuses to
 * touch a unit that has a file in /etc/systemd/system (it cannot tell whether it is loaded).
 */
import { readlinkSync } from 'node:fs';
import { defineFunction, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import * as sd from './_service-systemd.js';
import { which } from './_which.js';

/** Salt's `_check_for_unit_changes`: offline, a unit with a file under /etc/systemd/system is refused. */
async function checkUnitChanges(ctx: ExecContext, name: string): Promise<void> {
  if (sd.offline() && sd.localUnitReadable(name))
    throw new SALT_ERR_EXEC_COMMAND(
      `Cannot run in offline mode. Failed to get information on unit '${name}'`,
    );
  if (!sd.offline() && (await sd.unitFileChanged(ctx, name))) await systemctlReload(ctx);
}

async function systemctlReload(ctx: ExecContext): Promise<true> {
  const out = await sd.systemctl(ctx, '--system', 'daemon-reload');
  if (out.retcode !== 0)
    throw new SALT_ERR_EXEC_COMMAND(`Problem performing systemctl daemon-reload: ${sd.merged(out)}`);
  return true;
}

/** Salt's `masked`: whether /etc (or /run) /systemd/system/<unit> links to /dev/null. */
async function masked(ctx: ExecContext, name: string, runtime: boolean): Promise<boolean> {
  await checkUnitChanges(ctx, name);
  try {
    return readlinkSync(`/${runtime ? 'run' : 'etc'}/systemd/system/${sd.unitName(name)}`) === '/dev/null';
  } catch {
    return false;
  }
}

/** `(name, runtime=False, root=None)`, the arguments of masked, mask and unmask. */
function maskFunction(
  doc: string,
  run: (ctx: ExecContext, name: string, runtime: boolean) => Promise<boolean>,
) {
  return defineFunction({
    args: (z) =>
      z.object({ name: z.string(), runtime: z.boolean().default(false), root: z.string().nullish() }),
    doc,
    run: (ctx, { name, runtime }) => run(ctx, name, runtime),
  });
}

/** The table; `get_running` answers on every host with systemctl (Salt's offline mode runs it). */
export const SYSTEMD_ONLY = {
  offline: defineFunction({
    doc: "Check if systemd is working in offline mode, where is not possible to talk with PID 1.\n\nCLI Example: salt '*' service.offline",
    run: () => (sd.systemdBooted() ? false : (which('systemctl') ?? false)),
  }),
  get_static: defineFunction({
    args: (z) => z.object({ root: z.string().nullish() }),
    doc: "Return a list of all static services.\n\nCLI Example: salt '*' service.get_static",
    run: (ctx) => sd.getStatic(ctx),
  }),
  get_running: defineFunction({
    doc: "Return a list of all running services, so far as systemd is concerned.\n\nCLI Example: salt '*' service.get_running",
    run: (ctx) => sd.getRunning(ctx),
  }),
  show: defineFunction({
    args: (z) => z.object({ name: z.string(), root: z.string().nullish() }),
    doc: "Show properties of one or more units/jobs or the manager.\n\nCLI Example: salt '*' service.show <service name>",
    run: (ctx, { name }) => sd.show(ctx, name),
  }),
  masked: maskFunction(
    "Check whether or not a service is masked (runtime=True: a runtime mask).\n\nCLI Example: salt '*' service.masked foo",
    masked,
  ),
  mask: maskFunction(
    "Mask the specified service with systemd (runtime=True: until the next reboot).\n\nCLI Example: salt '*' service.mask foo",
    async (ctx, unit, runtime) => {
      await checkUnitChanges(ctx, unit);
      const out = await sd.systemctl(ctx, ...(runtime ? ['mask', '--runtime'] : ['mask']), sd.unitName(unit));
      if (out.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(`Failed to mask service '${unit}'`);
      return true;
    },
  ),
  unmask: {
    ...maskFunction(
      "Unmask the specified service with systemd (runtime=True: the runtime mask).\n\nCLI Example: salt '*' service.unmask foo",
      async (ctx, unit, runtime) => {
        await checkUnitChanges(ctx, unit);
        if (!(await masked(ctx, unit, runtime))) return true;
        const out = await sd.systemctl(
          ctx,
          ...(runtime ? ['unmask', '--runtime'] : ['unmask']),
          sd.unitName(unit),
        );
        if (out.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(`Failed to unmask service '${unit}'`);
        return true;
      },
    ),
    pyName: 'unmask_',
  },
  systemctl_reload: defineFunction({
    doc: "Reloads systemctl, an action needed whenever unit files are updated.\n\nCLI Example: salt '*' service.systemctl_reload",
    run: (ctx) => systemctlReload(ctx),
  }),
  execs: defineFunction({
    args: (z) => z.object({ root: z.string().nullish() }),
    doc: "Return a list of all files specified as ExecStart for all services.\n\nCLI Example: salt '*' service.execs",
    run: async (ctx) => {
      const ret: Record<string, unknown> = {};
      for (const service of sd.getAllUnits()) {
        const start = (await sd.show(ctx, service)).ExecStart;
        if (start === undefined) continue;
        ret[service] =
          typeof start === 'object' && start ? (start as Record<string, unknown>).path : undefined;
      }
      return ret;
    },
  }),
  firstboot: defineFunction({
    args: (z) =>
      z.object({
        locale: z.string().nullish(),
        locale_message: z.string().nullish(),
        keymap: z.string().nullish(),
        timezone: z.string().nullish(),
        hostname: z.string().nullish(),
        machine_id: z.string().nullish(),
        root: z.string().nullish(),
      }),
    doc: "Call systemd-firstboot to configure basic settings of the system.\n\nCLI Example: salt '*' service.firstboot keymap=jp locale=en_US.UTF-8",
    run: (ctx, a) => sd.firstboot(ctx, a),
  }),
};
