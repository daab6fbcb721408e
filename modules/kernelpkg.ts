/**
 * Salt's `kernelpkg` execution module on APT systems (`salt/modules/kernelpkg_linux_apt.py`):
 * the running kernel, the `linux-image-<release>` packages installed and available, whether a
 * reboot or an upgrade is due, and upgrading or removing kernel packages through `pkg.*`.
 *
 * Deliberate difference: where Salt compares against an installed kernel that is not there
 * (`needs_reboot`, `upgrade_available` with no `linux-image-*` package, as in a container) or
 * parses a candidate version it cannot read, it crashes with a Python traceback; here the
 * call fails with a clean CommandExecutionError that says what is missing.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { looseVersionLess } from './_pg-version.js';

const PREFIX = 'linux-image';
const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;

async function active(ctx: ExecContext): Promise<string> {
  const release = String(ctx.grains.kernelrelease ?? '');
  if (await ctx.functions.get('pkg.normalize_name'))
    return String(await ctx.call('pkg.normalize_name', [release]));
  return release;
}

/** The flavour of the running kernel: `amd64` in `6.1.0-27-amd64`. */
async function kernelType(ctx: ExecContext): Promise<string> {
  const release = await active(ctx);
  const m = /^[\d.-]+-(.+)$/.exec(release);
  if (!m) throw new SALT_ERR_EXEC_COMMAND(`Unable to find the kernel type in release '${release}'`);
  return m[1] as string;
}

const looseCmp = (a: string, b: string) => (looseVersionLess(a, b) ? -1 : looseVersionLess(b, a) ? 1 : 0);

async function listInstalled(ctx: ExecContext): Promise<string[]> {
  const type = await kernelType(ctx);
  const re = new RegExp(`^${PREFIX}-[\\d.-]+-${type}$`);
  const pkgs = ((await ctx.call('pkg.list_pkgs', [], { versions_as_list: true })) ?? {}) as Record<
    string,
    unknown
  >;
  return Object.keys(pkgs)
    .filter((name) => re.test(name))
    .map((name) => name.slice(PREFIX.length + 1))
    .sort(looseCmp);
}

async function latestInstalled(ctx: ExecContext): Promise<string | null> {
  const pkgs = await listInstalled(ctx);
  return pkgs[pkgs.length - 1] ?? null;
}

async function latestAvailable(ctx: ExecContext): Promise<string | null> {
  const type = await kernelType(ctx);
  const result = String((await ctx.call('pkg.latest_version', [`${PREFIX}-${type}`])) ?? '');
  if (result === '') return latestInstalled(ctx);
  const m = /^(\d+\.\d+\.\d+)\.(\d+)/.exec(result);
  if (!m) throw new SALT_ERR_EXEC_COMMAND(`Unable to read a kernel release from version '${result}'`);
  return `${m[1]}-${m[2]}-${type}`;
}

/** latest_installed, or a clean error where Salt would compare against None. */
async function needInstalled(ctx: ExecContext): Promise<string> {
  const latest = await latestInstalled(ctx);
  if (latest === null) throw new SALT_ERR_EXEC_COMMAND(`No ${PREFIX} package is installed`);
  return latest;
}

async function needsReboot(ctx: ExecContext): Promise<boolean> {
  const latest = await needInstalled(ctx);
  return looseVersionLess(await active(ctx), latest);
}

async function remove(ctx: ExecContext, release: string): Promise<{ removed: string[] }> {
  if (!(await listInstalled(ctx)).includes(release))
    throw new SALT_ERR_EXEC_COMMAND(`Kernel release '${release}' is not installed`);
  if (release === (await active(ctx))) throw new SALT_ERR_EXEC_COMMAND('Active kernel cannot be removed');
  const target = `${PREFIX}-${release}`;
  ctx.log.info({ target }, `Removing kernel package ${target}`);
  await ctx.call('pkg.purge', [target]);
  return { removed: [target] };
}

export default defineModule({
  name: 'kernelpkg',
  doc: 'Manage Linux kernel packages on APT-based systems.',
  virtual: (ctx) =>
    ['Kali', 'Debian', 'Cumulus'].includes(String(ctx.grains.os_family ?? ''))
      ? true
      : { ok: false, reason: 'Module kernelpkg_linux_apt: no APT based system detected' },
  functions: {
    active: defineFunction({
      args: (z) => z.object({}),
      doc: `Return the release number of the currently running kernel.${cli('kernelpkg.active')}`,
      run: (ctx) => active(ctx),
    }),
    list_installed: defineFunction({
      args: (z) => z.object({}),
      doc: `Return the release numbers of the installed kernel packages, oldest first.${cli('kernelpkg.list_installed')}`,
      run: (ctx) => listInstalled(ctx),
    }),
    latest_available: defineFunction({
      args: (z) => z.object({}),
      doc: `Return the release number of the newest kernel available in the repositories (the newest installed when none is).${cli('kernelpkg.latest_available')}`,
      run: (ctx) => latestAvailable(ctx),
    }),
    latest_installed: defineFunction({
      args: (z) => z.object({}),
      doc: `Return the release number of the newest installed kernel (None when there is none).${cli('kernelpkg.latest_installed')}`,
      run: (ctx) => latestInstalled(ctx),
    }),
    needs_reboot: defineFunction({
      args: (z) => z.object({}),
      doc: `Whether a newer kernel than the running one is installed (a reboot would start it).${cli('kernelpkg.needs_reboot')}`,
      run: (ctx) => needsReboot(ctx),
    }),
    upgrade: defineFunction({
      args: (z) => z.object({ reboot: z.unknown().default(false), at_time: z.unknown().optional() }),
      doc: `Upgrade the kernel package to the newest available and reboot when reboot=True and the new kernel needs it.${cli('kernelpkg.upgrade reboot=True at_time=1')}`,
      run: async (ctx, a) => {
        const result = await ctx.call('pkg.install', [], { name: `${PREFIX}-${await latestAvailable(ctx)}` });
        const reboot = await needsReboot(ctx);
        const ret = {
          upgrades: result,
          active: await active(ctx),
          latest_installed: await latestInstalled(ctx),
          reboot_requested: a.reboot,
          reboot_required: reboot,
        };
        if (pyTruthy(a.reboot) && reboot) {
          ctx.log.warn('Rebooting system due to kernel upgrade');
          await ctx.call('system.reboot', [], { at_time: a.at_time ?? null });
        }
        return ret;
      },
    }),
    upgrade_available: defineFunction({
      args: (z) => z.object({}),
      doc: `Whether a newer kernel package than the newest installed is available.${cli('kernelpkg.upgrade_available')}`,
      run: async (ctx) => {
        const available = await latestAvailable(ctx);
        const installed = await needInstalled(ctx);
        return available !== null && looseVersionLess(installed, available);
      },
    }),
    remove: defineFunction({
      args: (z) => z.object({ release: z.union([z.string(), z.number()]).transform(String) }),
      doc: `Purge the kernel package of a release (never the running kernel).${cli('kernelpkg.remove 4.4.0-70-generic')}`,
      run: (ctx, a) => remove(ctx, a.release),
    }),
    cleanup: defineFunction({
      args: (z) => z.object({ keep_latest: z.unknown().default(true) }),
      doc: `Purge every kernel package except the running one (and the newest installed unless keep_latest=False).${cli('kernelpkg.cleanup keep_latest=False')}`,
      run: async (ctx, a) => {
        const removed: string[] = [];
        for (const release of await listInstalled(ctx)) {
          if (release === (await active(ctx))) continue;
          if (pyTruthy(a.keep_latest) && release === (await latestInstalled(ctx))) continue;
          removed.push(...(await remove(ctx, release)).removed);
        }
        return { removed };
      },
    }),
  },
});
