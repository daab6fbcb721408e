/**
 * The `cmd_yaml` and `cmd_json` external pillars (Salt's `salt/pillar/cmd_yaml.py` and
 * `cmd_json.py`): run a shell command (`%s` becomes the minion id) and read its standard output
 * as YAML or JSON. Output that does not parse gives `{}` and a log line naming the command
 * (not the output, which may be secret), as in Salt.
 */
import { execFile } from 'node:child_process';
import { defineExtPillar, type ExtPillarContext, type ExtPillarDef } from '../ext-kind.js';
import type { PillarData } from '../merge.js';

const TIMEOUT_MS = 60_000;

/** Standard output of `/bin/sh -c command` (whatever its exit status, as `cmd.run_stdout`). */
export function shellStdout(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', command], { timeout: TIMEOUT_MS, maxBuffer: 64 << 20 }, (err, stdout) => {
      if (err && typeof stdout !== 'string') reject(err);
      else resolve(String(stdout ?? ''));
    });
  });
}

function commandOf(
  ctx: ExtPillarContext,
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
) {
  const command = args[0] ?? kwargs.command;
  if (typeof command !== 'string') throw new TypeError('expected a command string');
  return command.replaceAll('%s', ctx.minionId);
}

function cmdPillar(
  name: string,
  kind: 'YAML' | 'JSON',
  parse: (text: string) => Promise<unknown>,
): ExtPillarDef {
  return defineExtPillar({
    name,
    async run(ctx, args, kwargs) {
      const command = commandOf(ctx, args, kwargs);
      try {
        const data = await parse(await shellStdout(command));
        return (data && typeof data === 'object' && !Array.isArray(data) ? data : {}) as PillarData;
      } catch {
        ctx.log.error({ ext_pillar: name, command }, `${kind} data from '${command}' failed to parse`);
        return {};
      }
    },
  });
}

export const cmdYaml = cmdPillar('cmd_yaml', 'YAML', async (text) =>
  (await import('yaml')).parse(text, { version: '1.1', maxAliasCount: 1000 }),
);
export const cmdJson = cmdPillar('cmd_json', 'JSON', async (text) => JSON.parse(text));
