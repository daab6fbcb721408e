/**
 * The shell questions of Salt's `cmd` module (`salt/modules/cmdmod.py`): the shells
 * `/etc/shells` lists, a shell's version (`shell_info`), echoing to a tty, and the PowerShell
 * functions, which on Linux end where Salt's end.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { SALT_ERR_INVOCATION } from '../kernel/errors.js';
import { defineFunction } from '../kernel/loader/define.js';
import { pyFlag } from './_coerce.js';
import { pythonError } from './_py-exception.js';

/** Salt's `cmd.shells`: the non-comment lines of /etc/shells (none when it cannot be read). */
export async function shells(): Promise<string[]> {
  let text: string;
  try {
    text = await readFile('/etc/shells', 'utf8');
  } catch {
    return [];
  }
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** The command Salt runs to learn each shell's version (`regex_shells`, its pattern dropped). */
const VERSION_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  bash: ['bash', '--version'],
  'bash-test-error': ['bash', '--version'],
  'bash-test-env': ['bash', '-c', 'declare'],
  zsh: ['zsh', '--version'],
  tcsh: ['tcsh', '--version'],
  cmd: ['cmd.exe', '/C', 'ver'],
  powershell: ['powershell', '-NonInteractive', '$PSVersionTable'],
  perl: ['perl', '-e', 'printf "%vd\n", $^V;'],
  python: ['python', '-V'],
  ruby: ['ruby', '-v'],
  php: ['php', '-v'],
};

/** Python's OSError text for a failed spawn (`[Errno 2] No such file or directory: 'zsh'`). */
function spawnErrorText(err: NodeJS.ErrnoException, file: string): string {
  const known: Record<string, [number, string]> = {
    ENOENT: [2, 'No such file or directory'],
    EACCES: [13, 'Permission denied'],
    ENOTDIR: [20, 'Not a directory'],
  };
  const [no, text] = known[err.code ?? ''] ?? [err.errno ? -err.errno : 0, err.message];
  return `[Errno ${no}] ${text}: '${file}'`;
}

/** Runs `argv` with a 10 s limit: 'ran', 'timeout', or the spawn error. */
function tryRun(argv: readonly string[]): Promise<'ran' | 'timeout' | NodeJS.ErrnoException> {
  return new Promise((resolve) => {
    const env = { ...process.env };
    env.HOME ??= process.env.HOME ?? '/root';
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('timeout');
    }, 10_000);
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve(err);
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve('ran');
    });
  });
}

/**
 * Salt's `cmd.shell_info` off Windows. Salt 3006 reads the shell's output as bytes and then
 * searches it with a text pattern, so every shell that runs ends in that TypeError; one that
 * is missing or unknown gets Salt's error map.
 */
export async function shellInfo(shell: string): Promise<Record<string, unknown>> {
  const argv = VERSION_COMMANDS[shell];
  if (!argv)
    return { error: `Salt does not know how to get the version number for ${shell}`, installed: null };
  const ran = await tryRun(argv);
  if (ran === 'timeout')
    return { error: `Unable to run command '${argv.join(' ')}' Reason: Timed out.`, installed: false };
  if (ran !== 'ran')
    return {
      error: `Unable to run command '${argv.join(' ')}' Reason: ${spawnErrorText(ran, argv[0]!)}`,
      installed: false,
    };
  throw new SALT_ERR_INVOCATION('cannot use a string pattern on a bytes-like object');
}

/** Salt's `cmd.tty`: write `echo` to /dev/ttyN or /dev/pts/N. */
export async function echoToTty(device: string, echo: string): Promise<Record<string, string>> {
  let tty: string;
  if (device.startsWith('tty')) tty = `/dev/${device}`;
  else if (device.startsWith('pts')) tty = `/dev/${device.replace('pts', 'pts/')}`;
  else return { Error: 'The specified device is not a valid TTY' };
  try {
    await writeFile(tty, echo, { flag: 'w' });
    return { Success: `Message was successfully echoed to ${tty}` };
  } catch {
    return { Error: `Echoing to ${tty} returned error` };
  }
}

/** Salt's `powershell*` first read `shell_info('powershell')['psversion']`, a key only Windows answers. */
function noPsVersion(): never {
  throw pythonError('KeyError', "'psversion'");
}

/** The arguments of Salt's `cmd.powershell` (`all`: `cmd.powershell_all`'s, `quiet` and `force_list` in their places). */
function psArgs(z: typeof import('zod').z, all: boolean) {
  const u = () => z.unknown().optional();
  return z.object({
    cmd: z.unknown(),
    cwd: u(),
    stdin: u(),
    runas: u(),
    shell: z.unknown().default('powershell'),
    env: u(),
    clean_env: z.unknown().default(false),
    template: u(),
    rstrip: z.unknown().default(true),
    umask: u(),
    output_encoding: u(),
    output_loglevel: z.unknown().default('debug'),
    ...(all ? { quiet: z.unknown().default(false) } : { hide_output: z.unknown().default(false) }),
    timeout: u(),
    reset_system_locale: z.unknown().default(true),
    ignore_retcode: z.unknown().default(false),
    saltenv: u(),
    use_vt: z.unknown().default(false),
    password: u(),
    depth: u(),
    encode_cmd: z.unknown().default(false),
    ...(all ? { force_list: z.unknown().default(false) } : {}),
    success_retcodes: u(),
    success_stdout: u(),
    success_stderr: u(),
  });
}

/** `cmd.*` functions about shells; spread into the `cmd` module's functions. */
export const cmdShellFunctions = {
  shells: defineFunction({
    doc: "Lists the valid shells on this system via the /etc/shells file\n\nCLI Example:\n\n    salt '*' cmd.shells",
    run: () => shells(),
  }),
  shell_info: defineFunction({
    args: (z) => z.object({ shell: z.string(), list_modules: pyFlag(z, false) }),
    doc: "Provides information about a shell or script language (bash, zsh, tcsh, perl, python, ruby, php, powershell).\n\nCLI Example:\n\n    salt '*' cmd.shell_info bash",
    run: (_ctx, { shell }) => shellInfo(shell),
  }),
  tty: defineFunction({
    args: (z) => z.object({ device: z.string(), echo: z.string().default('') }),
    doc: "Echo a string to a specific tty\n\nCLI Example:\n\n    salt '*' cmd.tty tty0 'This is a test'\n    salt '*' cmd.tty pts3 'This is a test'",
    run: (_ctx, { device, echo }) => echoToTty(device, echo ?? ''),
  }),
  powershell: defineFunction({
    args: (z) => psArgs(z, false),
    varkw: true,
    doc: "Execute the passed PowerShell command and return the output as a dictionary (Windows only: elsewhere it fails as Salt's, with KeyError 'psversion').\n\nCLI Example:\n\n    salt '*' cmd.powershell \"$PSVersionTable.CLRVersion\"",
    run: () => noPsVersion(),
  }),
  powershell_all: defineFunction({
    args: (z) => psArgs(z, true),
    varkw: true,
    doc: "Execute the passed PowerShell command and return a dictionary of its results (Windows only: elsewhere it fails as Salt's, with KeyError 'psversion').\n\nCLI Example:\n\n    salt '*' cmd.powershell_all \"$PSVersionTable.CLRVersion\"",
    run: () => noPsVersion(),
  }),
};
