/**
 * Salt's `syslog_ng` execution module (`salt/modules/syslog_ng.py`): builds syslog-ng config
 * text from a state's YAML (`config`), appends it to the config file (`write_config`,
 * `write_version`), and runs syslog-ng and syslog-ng-ctl (`version`, `modules`, `stats`,
 * `config_test`, `start`, `stop`, `reload`). The config file and the binary folder are settings
 * kept for the loader's life (`set_config_file`, `set_binary_path`, `set_parameters`).
 */
import path from 'node:path';
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pyRepr, pyStr } from '../kernel/python/index.js';
import { buildSyslogNgConfig } from './_syslog-ng-build.js';
import {
  binaryPath,
  configFile,
  setSetting,
  stateResult,
  writeConfig,
  writeVersion,
} from './_syslog-ng-files.js';
import { returnData, runAll, runInPath } from './_syslog-ng-run.js';
import { startArgs, startParams } from './_syslog-ng-start.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    ${example}`;
const isTest = (ctx: ExecContext) => ctx.opts.test === true;

async function version(ctx: ExecContext, sbinDir: unknown): Promise<Record<string, unknown>> {
  const ret = await runInPath(ctx, sbinDir, 'syslog-ng', ['-V']);
  if ('error' in ret) return returnData(-1, undefined, ret.error);
  if (ret.retcode !== 0) return returnData(ret.retcode, ret.stdout, ret.stderr);
  const first = (ret.stdout.split('\n')[0] ?? '').trim().split(/\s+/);
  return returnData(0, first[1] ?? '');
}

/** Salt's `_determine_config_version`: the version up to its second dot, else its first 3 characters. */
async function configVersion(ctx: ExecContext): Promise<string> {
  const full = String((await version(ctx, binaryPath(ctx))).stdout ?? '');
  let dots = 0;
  for (let i = 0; i < full.length; i++) {
    if (full[i] === '.') dots++;
    if (dots === 2) return full.slice(0, i);
  }
  return full.slice(0, 3);
}

const sbinArg = (z: typeof import('zod').z) => ({ syslog_ng_sbin_dir: z.unknown().default(null) });

const binary = (ctx: ExecContext, name: string) => {
  const dir = binaryPath(ctx);
  return dir ? path.join(String(dir), name) : name;
};

export default defineModule({
  name: 'syslog_ng',
  doc: 'Build syslog-ng configuration from YAML and run syslog-ng and syslog-ng-ctl.',
  functions: {
    config: defineFunction({
      args: (z) => z.object({ name: z.string(), config: z.unknown(), write: z.unknown().default(true) }),
      doc: `Build syslog-ng configuration from a state's id (or <statement>.<id>) and its parsed YAML; write=True appends it to the config file. Meant for the syslog_ng state.${cli("salt '*' syslog_ng.config name='s_local' config=\"[{'tcp':[{'ip':'127.0.0.1'},{'port':1233}]}]\"")}`,
      run: (ctx, a) => {
        const text = buildSyslogNgConfig(a.name, a.config);
        if (isTest(ctx))
          return stateResult(
            a.name,
            null,
            undefined,
            `State syslog_ng will write '${text}' into ${pyStr(configFile(ctx))}`,
          );
        const ok = a.write ? writeConfig(ctx, text) : a.write;
        return stateResult(a.name, ok, { new: text, old: '' });
      },
    }),
    config_test: defineFunction({
      args: (z) => z.object({ ...sbinArg(z), cfgfile: z.unknown().default(null) }),
      doc: `Check the syntax of cfgfile (syslog-ng --syntax-only); syslog_ng_sbin_dir is added to PATH.${cli("salt '*' syslog_ng.config_test cfgfile=/etc/syslog-ng/syslog-ng.conf")}`,
      run: async (ctx, a) => {
        const params = ['--syntax-only'];
        if (a.cfgfile) params.push(`--cfgfile=${pyStr(a.cfgfile)}`);
        const ret = await runInPath(ctx, a.syslog_ng_sbin_dir, 'syslog-ng', params);
        if ('error' in ret) return returnData(-1, undefined, ret.error);
        return returnData(ret.retcode ?? -1, ret.stdout, ret.stderr);
      },
    }),
    version: defineFunction({
      args: (z) => z.object(sbinArg(z)),
      doc: `The installed syslog-ng's version; syslog_ng_sbin_dir is added to PATH.${cli("salt '*' syslog_ng.version")}`,
      run: (ctx, a) => version(ctx, a.syslog_ng_sbin_dir),
    }),
    modules: defineFunction({
      args: (z) => z.object(sbinArg(z)),
      doc: `The syslog-ng modules available (its Available-Modules line).${cli("salt '*' syslog_ng.modules")}`,
      run: async (ctx, a) => {
        const ret = await runInPath(ctx, a.syslog_ng_sbin_dir, 'syslog-ng', ['-V']);
        if ('error' in ret) return returnData(-1, undefined, ret.error);
        if (ret.retcode !== 0) return returnData(ret.retcode, ret.stdout, ret.stderr);
        const line = ret.stdout.split('\n').find((l) => l.startsWith('Available-Modules'));
        if (line === undefined) return returnData(-1, undefined, 'Unable to find the modules.');
        return returnData(ret.retcode, line.trim().split(/\s+/)[1] ?? '');
      },
    }),
    stats: defineFunction({
      args: (z) => z.object(sbinArg(z)),
      doc: `Statistics of the running syslog-ng (syslog-ng-ctl stats).${cli("salt '*' syslog_ng.stats")}`,
      run: async (ctx, a) => {
        const ret = await runInPath(ctx, a.syslog_ng_sbin_dir, 'syslog-ng-ctl', ['stats']);
        if ('error' in ret) return returnData(-1, undefined, ret.error);
        return returnData(ret.retcode, ret.stdout, ret.stderr);
      },
    }),
    start: defineFunction({
      args: startArgs,
      doc: `Start syslog-ng with the given options and the config file set by set_config_file (the binary from set_binary_path). Meant for the syslog_ng state.${cli("salt '*' syslog_ng.start")}`,
      run: async (ctx, a) => {
        const command = [binary(ctx, 'syslog-ng'), ...startParams(a, configFile(ctx))];
        if (isTest(ctx))
          return stateResult(a.name, null, undefined, `Syslog_ng state module will start ${pyRepr(command)}`);
        const result = await runAll(ctx, command);
        return stateResult(a.name, result.pid > 0, { new: command.join(' '), old: '' });
      },
    }),
    stop: defineFunction({
      args: (z) => z.object({ name: z.unknown().default(null) }),
      doc: `Kill syslog-ng (every process named syslog-ng). Meant for the syslog_ng state.${cli("salt '*' syslog_ng.stop")}`,
      run: async (ctx, a) => {
        const pids = (await ctx.call('ps.pgrep', [], { pattern: 'syslog-ng' })) as number[] | null;
        if (!pids || pids.length === 0)
          return stateResult(a.name, false, undefined, 'Syslog-ng is not running');
        if (isTest(ctx))
          return stateResult(a.name, null, undefined, 'Syslog_ng state module will kill {0} pids');
        const res = (await ctx.call('ps.pkill', ['syslog-ng'])) as { killed: number[] } | null;
        const killed = res?.killed ?? [];
        if (killed.length === pids.length && killed.every((p, i) => p === pids[i]))
          return stateResult(a.name, true, { old: killed, new: [] });
        return stateResult(a.name, false);
      },
    }),
    reload: defineFunction({
      pyName: 'reload_',
      args: (z) => z.object({ name: z.unknown() }),
      doc: `Reload syslog-ng (syslog-ng-ctl reload). Meant for the syslog_ng state.${cli("salt '*' syslog_ng.reload")}`,
      run: async (ctx, a) => {
        const result = await runAll(ctx, [binary(ctx, 'syslog-ng-ctl'), 'reload']);
        return stateResult(a.name, result.retcode === 0, undefined, result.stdout);
      },
    }),
    set_config_file: defineFunction({
      args: (z) => z.object({ name: z.unknown() }),
      doc: `Set the config file the other functions use.${cli("salt '*' syslog_ng.set_config_file name=/etc/syslog-ng.conf")}`,
      run: (ctx, a) => stateResult(a.name, true, { old: setSetting(ctx, 'config', a.name), new: a.name }),
    }),
    get_config_file: defineFunction({
      doc: `The config file the other functions use.${cli("salt '*' syslog_ng.get_config_file")}`,
      run: (ctx) => configFile(ctx),
    }),
    set_binary_path: defineFunction({
      args: (z) => z.object({ name: z.unknown() }),
      doc: `Set the folder holding syslog-ng and syslog-ng-ctl (when they are not in PATH).${cli("salt '*' syslog_ng.set_binary_path name=/usr/sbin")}`,
      run: (ctx, a) => stateResult(a.name, true, { old: setSetting(ctx, 'binary', a.name), new: a.name }),
    }),
    write_config: defineFunction({
      args: (z) => z.object({ config: z.unknown(), newlines: z.unknown().default(2) }),
      doc: `Append config (and newlines newlines) to the config file.${cli("salt '*' syslog_ng.write_config config='# comment'")}`,
      run: (ctx, a) => stateResult('', writeConfig(ctx, a.config, a.newlines), { old: '', new: a.config }),
    }),
    write_version: defineFunction({
      args: (z) => z.object({ name: z.unknown() }),
      doc: `Replace the config file with a generated header and '@version: <name>'.${cli('salt \'*\' syslog_ng.write_version name="3.6"')}`,
      run: (ctx, a) => writeVersion(ctx, a.name),
    }),
    set_parameters: defineFunction({
      args: (z) =>
        z.object({
          version: z.unknown().default(null),
          binary_path: z.unknown().default(null),
          config_file: z.unknown().default(null),
        }),
      varargs: true,
      varkw: true,
      doc: `Set the binary folder and the config file; version=True writes the installed syslog-ng's config version into a fresh config file.${cli("salt '*' syslog_ng.set_parameters version='3.6'")}`,
      run: async (ctx, a) => {
        if (a.binary_path) setSetting(ctx, 'binary', a.binary_path);
        if (a.config_file) setSetting(ctx, 'config', a.config_file);
        if (a.version) writeVersion(ctx, await configVersion(ctx));
        return returnData(0);
      },
    }),
  },
});
