/**
 * Salt's `restartcheck` execution module (`salt/modules/restartcheck.py`, after debian-goodies'
 * checkrestart): which processes still use deleted or replaced files (an upgraded library), the
 * packages they come from, the systemd units or init scripts that would restart them, and
 * whether the running kernel is older than the installed one. Debian and Red Hat families.
 *
 * Differences: Salt needs psutil; here /proc is read directly, so the module loads on Linux. A
 * process that ends while it is read is passed over (Salt may give up on it); a folder an open
 * file descriptor points at is walked following links but each real folder once.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { deletedFiles } from './_restartcheck-scan.js';

interface Pkg {
  initscripts: string[];
  systemdservice: string[];
  processes: string[];
  process_name: string;
}

const lines = (s: unknown) =>
  String(s ?? '')
    .split(/\r?\n/)
    .filter((l, i, a) => l !== '' || i < a.length - 1);
/** Python's `str.strip(chars)` / `rstrip(chars)`: the characters of `chars`, not the word. */
const stripChars = (s: string, chars: string, left = true) => {
  let a = 0;
  let b = s.length;
  while (left && a < b && chars.includes(s[a] as string)) a++;
  while (b > a && chars.includes(s[b - 1] as string)) b--;
  return s.slice(a, b);
};

async function kernelVersionsDebian(ctx: ExecContext): Promise<string[]> {
  const kernels = lines(await ctx.call('cmd.run', ['dpkg --get-selections linux-image-*']));
  let kernel = kernels.length >= 2 ? kernels[kernels.length - 2] : kernels[0];
  if (kernel === undefined) throw new SALT_ERR_EXEC_COMMAND('No kernel package selection found');
  kernel = stripChars(kernel, '\t\tinstall', false);
  const versions: string[] = [];
  for (const line of lines(await ctx.call('cmd.run', [`apt-cache policy ${kernel}`]))) {
    if (line.startsWith('  Installed: ')) {
      versions.push(stripChars(line, '  Installed: '));
      break;
    }
  }
  if (ctx.grains.os === 'Ubuntu' && versions[0] !== undefined) {
    const v = versions[0];
    const dot = v.lastIndexOf('.');
    const [head, tail] = dot < 0 ? [v, ''] : [v.slice(0, dot), v.slice(dot + 1)];
    versions.push(`${head}-generic #${tail}`, `${head}-lowlatency #${tail}`);
  }
  return versions;
}

async function kernelVersionsRedhat(ctx: ExecContext): Promise<string[]> {
  const kernels = lines(await ctx.call('cmd.run', ['rpm -q --last kernel'])).filter((l) =>
    l.includes('kernel-'),
  );
  if (kernels[0] === undefined) throw new SALT_ERR_EXEC_COMMAND('No kernel package found');
  return [stripChars(kernels[0].split(' ')[0] as string, 'kernel-')];
}

function formatOutput(
  kernelRestart: boolean,
  packages: Record<string, Pkg>,
  verbose: boolean,
  restartable: string[],
  nonrestartable: string[],
  serviceCmds: string[],
  initCmds: string[],
): string | string[] {
  if (!verbose) {
    const list = [...restartable, ...nonrestartable];
    if (kernelRestart) list.push('System restart required.');
    return list;
  }
  const n = Object.keys(packages).length;
  let ret = kernelRestart ? 'System restart required.\n\n' : '';
  if (n > 0) ret += `Found ${n} processes using old versions of upgraded files.\nThese are the packages:\n`;
  const programs = (p: string) => `${p}:\n${(packages[p] as Pkg).processes.map((x) => `${x}\n`).join('')}`;
  if (restartable.length > 0) {
    ret += `Of these, ${restartable.length} seem to contain systemd service definitions or init scripts which can be used to restart them:\n`;
    ret += restartable.map(programs).join('');
    if (serviceCmds.length > 0) ret += `\n\nThese are the systemd services:\n${serviceCmds.join('\n')}`;
    if (initCmds.length > 0) ret += `\n\nThese are the initd scripts:\n${initCmds.join('\n')}`;
  }
  if (nonrestartable.length > 0) {
    ret += `\n\nThese processes ${nonrestartable.length} do not seem to have an associated init script to restart them:\n`;
    ret += nonrestartable.map(programs).join('');
  }
  return ret;
}

const asList = (v: unknown, dflt: unknown[]): unknown[] => (v ? (Array.isArray(v) ? [...v] : [v]) : dflt);

export default defineModule({
  name: 'restartcheck',
  doc: 'checkrestart functionality for Debian and Red Hat based systems: processes using deleted files.',
  virtual: (ctx) =>
    ctx.grains.kernel === 'Linux' || { ok: false, reason: 'restartcheck reads /proc: Linux only' },
  functions: {
    restartcheck: defineFunction({
      args: (z) =>
        z.object({
          ignorelist: z.unknown().optional(),
          blacklist: z.unknown().optional(),
          excludepid: z.unknown().optional(),
        }),
      varkw: true,
      doc: "Analyzes files used by processes: which packages' processes use deleted files and how to restart them (verbose=False: a list; timeout: minutes).\n\nCLI Example:\n\n    salt '*' restartcheck.restartcheck",
      run: async (ctx, a, extra) => {
        const kw = cleanKwargs(extra.kwargs);
        const start = Date.now();
        const verbose = kw.verbose === undefined ? true : Boolean(kw.verbose);
        const timeout = Number(kw.timeout ?? 5);
        const check = () => {
          if (timeout * 60000 < Date.now() - start) throw new SALT_ERR_EXEC_COMMAND('Timeout expired.');
        };
        const family = ctx.grains.os_family;
        let query: string[];
        let systemdFolder: string;
        let systemd: string;
        let kernelVersions: string[];
        if (family === 'Debian') {
          [query, systemdFolder, systemd] = [
            ['dpkg-query', '--listfiles'],
            '/lib/systemd/system/',
            '/bin/systemd',
          ];
          kernelVersions = await kernelVersionsDebian(ctx);
        } else if (family === 'RedHat') {
          [query, systemdFolder, systemd] = [
            ['repoquery', '-l'],
            '/usr/lib/systemd/system/',
            '/usr/bin/systemctl',
          ];
          kernelVersions = await kernelVersionsRedhat(ctx);
        } else
          return {
            result: false,
            comment: 'Only available on Debian, Red Hat and NI Linux Real-Time based systems.',
          };
        const current = String(await ctx.call('cmd.run', ['uname -a']));
        let kernelRestart = true;
        for (const k of kernelVersions) {
          check();
          if (current.includes(k)) {
            kernelRestart = false;
            break;
          }
        }
        const ignorelist = asList(a.ignorelist, ['screen', 'systemd']);
        const blacklist = asList(a.blacklist, []);
        const excludepid = asList(a.excludepid, []);
        const running: Record<string, number> = {};
        for (const service of (await ctx.call('service.get_running')) as string[]) {
          check();
          const show = (await ctx.call('service.show', [service])) as Record<string, unknown>;
          if ('ExecMainPID' in show) running[service] = Number.parseInt(String(show.ExecMainPID), 10);
        }
        const restartServices: string[] = [];
        const packages: Record<string, Pkg> = {};
        const owners = new Map<string, string>();
        for await (const d of deletedFiles(check)) {
          if (d === false)
            return { result: false, comment: 'Could not get list of processes. (Do you have root access?)' };
          check();
          let name = d.name;
          if (blacklist.includes(d.path) || excludepid.includes(d.pid)) continue;
          let exe: string;
          try {
            exe = await readlink(`/proc/${d.pid}/exe`);
          } catch {
            excludepid.push(d.pid);
            continue;
          }
          let pkg = owners.get(exe);
          if (pkg === undefined) {
            pkg = String((await ctx.call('pkg.owner', [exe])) || '') || name;
            owners.set(exe, pkg);
          }
          const wanted = pkg !== '' && !ignorelist.includes(pkg);
          for (const [service, pid] of Object.entries(running)) {
            check();
            if (!restartServices.includes(service) && d.pid === pid && wanted) {
              restartServices.push(service);
              name = service;
            }
          }
          if (!wanted) continue;
          const program = `\t${d.pid} ${exe} (file: ${d.path})`;
          const entry = packages[pkg];
          if (!entry)
            packages[pkg] = { initscripts: [], systemdservice: [], processes: [program], process_name: name };
          else if (!entry.processes.includes(program)) entry.processes.push(program);
        }
        if (Object.keys(packages).length === 0 && !kernelRestart)
          return 'No packages seem to need to be restarted.';
        const run = promisify(execFile);
        for (const [pkg, entry] of Object.entries(packages)) {
          check();
          let listed = '';
          try {
            listed = (await run(query[0] as string, [...query.slice(1), pkg], { maxBuffer: 64 << 20 }))
              .stdout;
          } catch (err) {
            listed = String((err as { stdout?: string }).stdout ?? '');
          }
          for (const pth of listed.split('\n')) {
            if (pth.startsWith('/etc/init.d/') && !pth.endsWith('.sh')) entry.initscripts.push(pth.slice(12));
            if (
              existsSync(systemd) &&
              pth.startsWith(systemdFolder) &&
              pth.endsWith('.service') &&
              !pth.includes('.wants')
            ) {
              let text: string;
              try {
                text = await readFile(pth, 'utf8');
              } catch {
                continue;
              }
              // as Salt: Type=oneshot counts only when not at the start of its line
              const oneshot = text.split('\n').some((l) => l.indexOf('Type=oneshot') > 0);
              if (!oneshot) entry.systemdservice.push(pth.slice(systemdFolder.length));
            }
          }
        }
        for (const entry of Object.values(packages)) {
          check();
          if (entry.systemdservice.length > 0 || entry.initscripts.length > 0) continue;
          if (await ctx.call('service.available', [entry.process_name])) {
            if (existsSync(`/etc/init.d/${entry.process_name}`)) entry.initscripts.push(entry.process_name);
            else entry.systemdservice.push(entry.process_name);
          }
        }
        const restartable: string[] = [];
        const nonrestartable: string[] = [];
        const initCmds: string[] = [];
        const serviceCmds: string[] = [];
        for (const [pkg, entry] of Object.entries(packages)) {
          check();
          if (entry.initscripts.length > 0) {
            restartable.push(pkg);
            initCmds.push(...entry.initscripts.map((s) => `service ${s} restart`));
          } else if (entry.systemdservice.length > 0) {
            restartable.push(pkg);
            serviceCmds.push(...entry.systemdservice.map((s) => `systemctl restart ${s}`));
          } else nonrestartable.push(pkg);
          const at = restartServices.indexOf(entry.process_name);
          if (at >= 0) restartServices.splice(at, 1);
        }
        for (const s of restartServices) serviceCmds.push(`systemctl restart ${s}`);
        return formatOutput(
          kernelRestart,
          packages,
          verbose,
          restartable,
          nonrestartable,
          serviceCmds,
          initCmds,
        );
      },
    }),
  },
});
