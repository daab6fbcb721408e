/**
 * Salt's `supervisord` execution module (`salt/modules/supervisord.py`): programs run by
 * supervisord, through its `supervisorctl` (`conf_file` picks the supervisord, `bin_env` a
 * virtualenv or the program itself, `user` whom it runs as). Each command answers with
 * supervisorctl's output, prefixed `ERROR: ` when it failed without saying so.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { parseConfig, sectionItems } from './_configparser.js';

interface Ctl {
  user: string | null;
  conf_file: string | null;
  bin_env: string | null;
}

async function ctlBin(ctx: ExecContext, binEnv: string | null): Promise<string> {
  const missing = () => new SALT_ERR_EXEC_COMMAND('Could not find a `supervisorctl` binary');
  if (!binEnv) {
    const found = await ctx.call('cmd.which_bin', [['supervisorctl']]);
    if (typeof found !== 'string') throw missing();
    return found;
  }
  if (existsSync(binEnv) && statSync(binEnv).isDirectory()) {
    const bin = path.join(binEnv, 'bin', 'supervisorctl');
    if (existsSync(bin) && statSync(bin).isFile()) return bin;
    throw missing();
  }
  return binEnv;
}

/** Runs `supervisorctl [-c conf] <cmd> [name]` and reads its answer as Salt's `_get_return`. */
async function ctl(ctx: ExecContext, cmd: string, name: string | null, c: Ctl): Promise<string> {
  const argv = [await ctlBin(ctx, c.bin_env)];
  if (c.conf_file !== null) argv.push('-c', c.conf_file);
  argv.push(cmd);
  if (name) argv.push(name);
  const r = (await ctx.call('cmd.run_all', [argv], { runas: c.user, python_shell: false })) as {
    retcode: number;
    stdout: string;
  };
  return r.retcode !== 0 && !r.stdout.includes('ERROR') ? `ERROR: ${r.stdout}` : r.stdout;
}

/** `group:*` names the group as `group:`. */
const groupName = (name: string) => (name.endsWith(':*') ? name.slice(0, -1) : name);
/** `group:` and `group:*` name the group as `group`. */
const bareGroup = (name: string) =>
  name.endsWith(':') ? name.slice(0, -1) : name.endsWith(':*') ? name.slice(0, -2) : name;

/** One `status` line: process, state and the rest (Salt's split on whitespace, at most 3 parts). */
function statusLine(line: string): [string, string, string] {
  const parts = line.trim().split(/\s+/);
  if (parts.length > 2) {
    const m = /^\s*(\S+)\s+(\S+)\s+([\s\S]*)$/.exec(line) as RegExpExecArray;
    return [m[1] as string, m[2] as string, m[3] as string];
  }
  return [parts[0] ?? '', parts[1] ?? '', ''];
}

/** Salt's `to_num` and booleans for a config value (its `;` comment cut off). */
function optionValue(raw: string): string | number | boolean {
  const v = (raw.split(';')[0] ?? '').trim();
  if (/^[+-]?\d+(_\d+)*$/.test(v)) return Number(v.replace(/_/g, ''));
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v)) return Number(v);
  if (v.toLowerCase() === 'true') return true;
  if (v.toLowerCase() === 'false') return false;
  return v;
}

async function readConfig(confFile: string | null) {
  const file =
    confFile ??
    ['/etc/supervisor/supervisord.conf', '/etc/supervisord.conf'].find((p) => existsSync(p)) ??
    null;
  if (file === null) throw new SALT_ERR_EXEC_COMMAND('No suitable config file found');
  // Python's ConfigParser.read skips a file it cannot open
  const text = await readFile(file, 'utf8').catch(() => '');
  return parseConfig(text);
}

const cli = (example: string) => `\n\nCLI Example:\n\n    ${example}`;

const ctlArgs = (z: typeof import('zod').z) => ({
  user: z.string().nullable().default(null),
  conf_file: z.string().nullable().default(null),
  bin_env: z.string().nullable().default(null),
});

/** start, restart and stop: one program, a `group:` or `all`. */
const action = (cmd: 'start' | 'restart' | 'stop') =>
  defineFunction({
    args: (z) => z.object({ name: z.string().default('all'), ...ctlArgs(z) }),
    doc: `${cmd[0]?.toUpperCase()}${cmd.slice(1)} the named service (a program, a 'group:' or 'all'); user: run supervisorctl as; conf_file: supervisord's config; bin_env: a virtualenv or the supervisorctl program.${cli(`salt '*' supervisord.${cmd} <service>`)}`,
    run: (ctx, a) => ctl(ctx, cmd, groupName(a.name), a),
  });

/** add and remove: a program or group by its bare name. */
const change = (cmd: 'add' | 'remove') =>
  defineFunction({
    args: (z) => z.object({ name: z.string(), ...ctlArgs(z) }),
    doc: `${cmd === 'add' ? 'Activate' : 'Remove'} any updates in config for the named process or group.${cli(`salt '*' supervisord.${cmd} <name>`)}`,
    run: (ctx, a) => ctl(ctx, cmd, bareGroup(a.name), a),
  });

async function statusRaw(ctx: ExecContext, name: string | null, c: Ctl): Promise<string> {
  return ctl(ctx, 'status', name, c);
}

export default defineModule({
  name: 'supervisord',
  doc: 'Control programs run by supervisord through supervisorctl.',
  functions: {
    start: action('start'),
    restart: action('restart'),
    stop: action('stop'),
    add: change('add'),
    remove: change('remove'),
    reread: defineFunction({
      args: (z) => z.object(ctlArgs(z)),
      doc: `Reload the daemon's configuration files.${cli("salt '*' supervisord.reread")}`,
      run: (ctx, a) => ctl(ctx, 'reread', null, a),
    }),
    update: defineFunction({
      args: (z) => z.object({ ...ctlArgs(z), name: z.unknown().default(null) }),
      doc: `Reload config and add/remove/update as necessary (name: one process group only).${cli("salt '*' supervisord.update")}`,
      run: (ctx, a) =>
        ctl(
          ctx,
          'update',
          typeof a.name === 'string' ? bareGroup(a.name) : a.name ? String(a.name) : null,
          a,
        ),
    }),
    status: defineFunction({
      args: (z) => z.object({ name: z.string().nullable().default(null), ...ctlArgs(z) }),
      doc: `List programs and their state.${cli("salt '*' supervisord.status")}`,
      run: async (ctx, a) => {
        const out: Record<string, { state: string; reason: string }> = {};
        for (const line of (await statusRaw(ctx, a.name, a)).split(/\r?\n/)) {
          if (!line.trim()) continue;
          const [process, state, reason] = statusLine(line);
          out[process] = { state, reason };
        }
        return out;
      },
    }),
    status_raw: defineFunction({
      args: (z) => z.object({ name: z.string().nullable().default(null), ...ctlArgs(z) }),
      doc: `Display the raw output of status.${cli("salt '*' supervisord.status_raw")}`,
      run: (ctx, a) => statusRaw(ctx, a.name, a),
    }),
    status_bool: defineFunction({
      args: (z) =>
        z.object({ name: z.string(), expected_state: z.string().nullable().default(null), ...ctlArgs(z) }),
      doc: `Whether the named process is known (and in expected_state, e.g. RUNNING).${cli("salt '*' supervisord.status_bool nginx expected_state='RUNNING'")}`,
      run: async (ctx, a) => {
        const lines = (await ctl(ctx, `status ${a.name}`, null, a)).split(/\r?\n/).filter((l) => l.trim());
        const last = lines[lines.length - 1];
        if (last === undefined)
          throw new SALT_ERR_EXEC_COMMAND(
            "cannot access local variable 'reason' where it is not associated with a value",
          );
        const [process, state, reason] = statusLine(last);
        if (reason === '(no such process)' || process !== a.name) return false;
        return a.expected_state === null || state === a.expected_state;
      },
    }),
    custom: defineFunction({
      args: (z) => z.object({ command: z.string(), ...ctlArgs(z) }),
      doc: `Run any custom supervisord command.${cli("salt '*' supervisord.custom \"mstop '*gunicorn*'\"")}`,
      run: (ctx, a) => ctl(ctx, a.command, null, a),
    }),
    options: defineFunction({
      args: (z) => z.object({ name: z.string(), conf_file: z.string().nullable().default(null) }),
      doc: `Read the config options of a program ([program:<name>]).${cli("salt '*' supervisord.options foo")}`,
      run: async (_ctx, a) => {
        const parsed = await readConfig(a.conf_file);
        const section = `program:${a.name}`;
        if (!parsed.sections.has(section)) throw new SALT_ERR_EXEC_COMMAND(`Process '${a.name}' not found`);
        return Object.fromEntries(sectionItems(parsed, section).map(([k, v]) => [k, optionValue(v)]));
      },
    }),
  },
});
