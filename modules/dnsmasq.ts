/**
 * Salt's `dnsmasq` execution module (`salt/modules/dnsmasq.py`): the installed dnsmasq's
 * version (`dnsmasq -v`), and its config file read (`get_config`: `key=value` lines, repeated
 * keys as lists, other lines under `unparsed`, the `conf-dir` files merged in) or changed
 * (`set_config`: a key set where it is, through file.sed, else appended with file.append).
 */
import { opendirSync, readFileSync, statSync } from 'node:fs';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/python/index.js';
import { pyOsError } from './_py-oserror.js';

type Options = Record<string, string | string[]>;

const isFile = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** Python's OSError subclass for a Node error code. */
const OS_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'FileNotFoundError',
  ENOTDIR: 'NotADirectoryError',
  EACCES: 'PermissionError',
  EPERM: 'PermissionError',
};

/** Python's `os.listdir`: the directory's entries in the order the file system gives them. */
function listdir(dir: unknown): string[] {
  if (typeof dir !== 'string')
    throw new SALT_ERR_EXEC_COMMAND(
      `TypeError: listdir: path should be string, bytes, os.PathLike, integer or None, not ${Array.isArray(dir) ? 'list' : typeof dir}`,
    );
  try {
    const d = opendirSync(dir);
    const names: string[] = [];
    for (let e = d.readSync(); e !== null; e = d.readSync()) names.push(e.name);
    d.closeSync();
    return names;
  } catch (err) {
    const kind = OS_ERRORS[(err as NodeJS.ErrnoException).code ?? ''] ?? 'OSError';
    throw new SALT_ERR_EXEC_COMMAND(`${kind}: ${pyOsError(err, dir)}`);
  }
}

/** Salt's `_parse_dnamasq`: one file's options. */
function parseFile(filename: string): Options {
  if (!isFile(filename)) throw new SALT_ERR_EXEC_COMMAND(`Error: No such file '${filename}'`);
  const opts: Options = {};
  const text = readFileSync(filename, 'utf8').replace(/\r\n?/g, '\n');
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    if (!line.trim()) continue;
    if (line.startsWith('#')) continue;
    if (line.includes('=')) {
      const parts = line.split('=');
      const key = parts[0] as string;
      const value = (parts[1] as string).trim();
      const had = opts[key];
      if (had === undefined) opts[key] = value;
      else opts[key] = typeof had === 'string' ? [had, value] : [...had, value];
    } else {
      const unparsed = (opts.unparsed ?? []) as string[];
      unparsed.push(line);
      opts.unparsed = unparsed;
    }
  }
  return opts;
}

/** Salt's `get_config`: the file's options, each conf-dir file's laid over them. */
function getConfig(configFile: string): Options {
  const opts = parseFile(configFile);
  if ('conf-dir' in opts) {
    const dir = opts['conf-dir'];
    for (const f of listdir(dir)) {
      if (f.startsWith('.') || f.endsWith('~') || f.endsWith('#')) continue;
      Object.assign(opts, parseFile(`${pyStr(dir)}/${f}`));
    }
  }
  return opts;
}

async function dnsmasqV(ctx: ExecContext): Promise<string[]> {
  return String(await ctx.call('cmd.run', ['dnsmasq -v'], { python_shell: false })).split(/\r\n|\n|\r/);
}

/** Python's IndexError when the output has fewer lines or words than Salt reads. */
const pick = <T>(list: readonly T[], i: number): T => {
  if (i >= list.length) throw new SALT_ERR_EXEC_COMMAND('IndexError: list index out of range');
  return list[i] as T;
};
const words = (line: string) => line.trim().split(/\s+/).filter(Boolean);

export default defineModule({
  name: 'dnsmasq',
  doc: "Manage dnsmasq: its version and its config file's options.",
  functions: {
    version: defineFunction({
      doc: "The installed dnsmasq's version.\n\nCLI Example:\n\n    salt '*' dnsmasq.version",
      run: async (ctx) => pick(words(pick(await dnsmasqV(ctx), 0)), 2),
    }),
    fullversion: defineFunction({
      doc: "The installed dnsmasq's version and compile options.\n\nCLI Example:\n\n    salt '*' dnsmasq.fullversion",
      run: async (ctx) => {
        const out = await dnsmasqV(ctx);
        const version = pick(words(pick(out, 0)), 2);
        return { version, 'compile options': words(pick(out, 1)).slice(3) };
      },
    }),
    set_config: defineFunction({
      args: (z) =>
        z.object({ config_file: z.string().default('/etc/dnsmasq.conf'), follow: z.unknown().default(true) }),
      varkw: true,
      doc: `Set options (key=value keywords) in config_file: a key set once is changed where it is (follow=True: also in the conf-dir files), else the line is appended to config_file.\n\nCLI Example:\n\n    salt '*' dnsmasq.set_config domain=mydomain.com\n    salt '*' dnsmasq.set_config follow=False domain=mydomain.com`,
      run: async (ctx, a, extra) => {
        const opts = getConfig(a.config_file);
        const includes = [a.config_file];
        if (a.follow === true && 'conf-dir' in opts) {
          const dir = opts['conf-dir'];
          for (const f of listdir(dir)) {
            if (f.startsWith('.') || f.endsWith('~') || f.endsWith('bak') || f.endsWith('#')) continue;
            includes.push(`${pyStr(dir)}/${f}`);
          }
        }
        const ret: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(extra.kwargs)) {
          if (key.startsWith('__')) continue;
          ret[key] = value;
          const line = `${key}=${pyStr(value)}`;
          if (typeof opts[key] === 'string')
            for (const path of includes)
              await ctx.call('file.sed', [], { path, before: `^${key}=.*`, after: line });
          else await ctx.call('file.append', [a.config_file, line]);
        }
        return ret;
      },
    }),
    get_config: defineFunction({
      args: (z) => z.object({ config_file: z.string().default('/etc/dnsmasq.conf') }),
      doc: "Read every option of the config file (and of the files in its conf-dir).\n\nCLI Example:\n\n    salt '*' dnsmasq.get_config\n    salt '*' dnsmasq.get_config config_file=/etc/dnsmasq.conf",
      run: (_ctx, a) => getConfig(a.config_file),
    }),
  },
});
