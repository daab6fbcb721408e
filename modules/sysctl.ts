/**
 * Salt's `sysctl` execution module on Linux (`salt/modules/linux_sysctl.py`): read kernel
 * parameters (`sysctl -n`, `sysctl -a`), set them (`sysctl -w`, argv) and persist them in a
 * config file (`/etc/sysctl.d/99-salt.conf` under systemd, else `/etc/sysctl.conf`).
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';

const defaultConfig = (): string =>
  existsSync('/run/systemd/system') ? '/etc/sysctl.d/99-salt.conf' : '/etc/sysctl.conf';

async function get(ctx: ExecContext, name: string): Promise<string> {
  return String(await ctx.call('cmd.run', [['sysctl', '-n', name]], { python_shell: false }));
}

async function assign(ctx: ExecContext, name: string, value: unknown): Promise<Record<string, string>> {
  const v = String(value);
  const file = `/proc/sys/${name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'))}`;
  if (!existsSync(file)) throw new SALT_ERR_EXEC_COMMAND(`sysctl ${name} does not exist`);
  const data = (await ctx.call('cmd.run_all', [['sysctl', '-w', `${name}=${v}`]], {
    python_shell: false,
  })) as {
    retcode: number;
    stdout: string;
    stderr: string;
  };
  if (data.stdout !== `${name} = ${v}` || data.stderr.includes('Invalid argument')) {
    const error = data.retcode !== 0 && data.stderr ? data.stderr : data.stdout;
    throw new SALT_ERR_EXEC_COMMAND(`sysctl -w failed: ${error}`);
  }
  const at = data.stdout.indexOf(' = ');
  return { [data.stdout.slice(0, at)]: data.stdout.slice(at + 3) };
}

const sanitize = (v: unknown) => String(v).replace(/\s+/g, '\t');

async function persist(
  ctx: ExecContext,
  name: string,
  value: unknown,
  config?: string | null,
): Promise<string> {
  const file = config ?? defaultConfig();
  if (!existsSync(file) || !statSync(file).isFile()) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '#\n# Kernel sysctl configuration\n#\n');
  }
  const lines = (await readFile(file, 'utf8')).split(/(?<=\n)/).filter((l) => l !== '');
  const out: string[] = [];
  let edited = false;
  for (const line of lines) {
    if (!line.includes('=')) {
      out.push(line);
      continue;
    }
    const at = line.indexOf('=');
    const key = line.slice(0, at).trim();
    const val = line.slice(at + 1).trim();
    if (key.startsWith('#') || key !== name) {
      out.push(line);
      continue;
    }
    if (sanitize(val) === sanitize(value)) {
      if (sanitize(await get(ctx, name)) !== sanitize(value)) {
        await assign(ctx, name, value);
        return 'Updated';
      }
      return 'Already set';
    }
    out.push(`${name} = ${String(value)}\n`);
    edited = true;
  }
  if (!edited) out.push(`${name} = ${String(value)}\n`);
  await writeFile(file, out.join(''));
  await assign(ctx, name, value);
  return 'Updated';
}

export default defineModule({
  name: 'sysctl',
  doc: 'Read and set Linux kernel parameters (sysctl).',
  virtual: () => (process.platform === 'linux' ? true : { ok: false, reason: 'sysctl: Linux only' }),
  functions: {
    default_config: defineFunction({
      doc: 'Return the config file sysctl.persist writes by default.',
      run: () => defaultConfig(),
    }),
    show: defineFunction({
      args: (z) => z.object({ config_file: z.union([z.string(), z.boolean()]).default(false) }),
      doc: "Return the kernel parameters (sysctl -a), or those set in config_file ([] when it is missing).\n\nCLI Example: salt '*' sysctl.show",
      run: async (ctx, a) => {
        const ret: Record<string, string> = {};
        if (a.config_file) {
          const file = String(a.config_file);
          if (!existsSync(file)) return [];
          let text: string;
          try {
            text = await readFile(file, 'utf8');
          } catch {
            ctx.log.error('Could not open sysctl file');
            return null;
          }
          for (const raw of text.split('\n')) {
            const line = raw.trim();
            if (line.startsWith('#') || !line.includes('=')) continue;
            const at = line.indexOf('=');
            ret[line.slice(0, at).trimEnd()] = line.slice(at + 1).trimStart();
          }
          return ret;
        }
        const out = String(await ctx.call('cmd.run_stdout', [['sysctl', '-a']], { python_shell: false }));
        for (const line of out.split('\n')) {
          const at = line.indexOf(' = ');
          if (at > 0) ret[line.slice(0, at)] = line.slice(at + 3);
        }
        return ret;
      },
    }),
    get: defineFunction({
      args: (z) => z.object({ name: z.string() }),
      doc: "Return a single sysctl parameter.\n\nCLI Example: salt '*' sysctl.get net.ipv4.ip_forward",
      run: (ctx, a) => get(ctx, a.name),
    }),
    assign: defineFunction({
      args: (z) => z.object({ name: z.string(), value: z.unknown() }),
      doc: "Assign a single sysctl parameter for this minion (sysctl -w).\n\nCLI Example: salt '*' sysctl.assign net.ipv4.ip_forward 1",
      run: (ctx, a) => assign(ctx, a.name, a.value),
    }),
    persist: defineFunction({
      args: (z) => z.object({ name: z.string(), value: z.unknown(), config: z.string().nullish() }),
      doc: "Assign and persist a simple sysctl parameter: 'Updated' or 'Already set'.\n\nCLI Example: salt '*' sysctl.persist net.ipv4.ip_forward 1",
      run: (ctx, a) => persist(ctx, a.name, a.value, a.config),
    }),
  },
});
