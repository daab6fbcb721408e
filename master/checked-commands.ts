/**
 * Refuses, when the master kernel is built (before the request server starts), a request
 * command the request server could not honour: the router thread opens only `aes` requests,
 * and a `private` reply's RSA work must not run on it.
 */
import type { CommandDef } from '../kernel/commands/define.js';
import { SALT_ERR_COMMAND_INVALID } from '../kernel/errors.js';
import type { Registry } from '../kernel/registry.js';

function problem(def: CommandDef): string | undefined {
  if (typeof def.cmd !== 'string' || def.cmd === '') return 'cmd must be a non-empty string';
  if (def.enc !== 'aes' && def.enc !== 'clear')
    return `enc must be 'aes' or 'clear', not ${JSON.stringify(def.enc)}`;
  if (typeof def.handle !== 'function') return 'handle must be a function';
  if (def.enc === 'clear' && def.lane === 'light') return "the 'light' lane is for aes commands only";
  if (def.reply === 'private' && def.enc !== 'aes') return "a 'private' reply is for aes commands only";
  if (def.reply === 'private' && def.lane === 'light')
    return "a 'private' reply costs RSA work: use the 'worker' lane";
  return undefined;
}

/** Throws SALT_ERR_COMMAND_INVALID for the first command the request server could not honour. */
export function checkCommands(commands: Registry<CommandDef>): void {
  for (const cmd of commands.names()) {
    const def = commands.get(cmd)!;
    const why = problem(def);
    if (why) throw new SALT_ERR_COMMAND_INVALID(String(def.cmd), why);
  }
}
