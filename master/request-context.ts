/**
 * The context of one request on the request server: what a command's handler may use
 * ({@link CommandContext}), and, for the kernel's own commands, the request's effects and
 * protocol version.
 */

import { checkClearAuth } from '../kernel/auth/clear-auth.js';
import type { ClearAuthRefusal, CommandContext } from '../kernel/commands/define.js';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import type { StartTaskOptions } from '../kernel/process/task.js';
import type { Effects, HandlerEnv } from './handlers/context.js';
import { spawnTask } from './task-spawn.js';

export class RequestContext implements CommandContext {
  readonly #env: HandlerEnv;

  constructor(
    env: HandlerEnv,
    /** What the host thread does once the reply is sent: publishes, events, sign-ins. */
    readonly effects: Effects,
    readonly id: string | undefined,
    /** The request's protocol `version` (sign-in answers depend on it). */
    readonly version: number,
  ) {
    this.#env = env;
  }

  get config(): ResolvedMasterConfig {
    return this.#env.config;
  }

  get log(): CommandContext['log'] {
    return this.#env.kernel.log;
  }

  get jobCache(): CommandContext['jobCache'] {
    return this.#env.jobCache;
  }

  fire(tag: string, data: Record<string, unknown>): void {
    this.effects.events.push({ tag, data });
  }

  clearUser(load: Readonly<Record<string, unknown>>): { user: string } | ClearAuthRefusal {
    return checkClearAuth(load, this.#env.userKeys());
  }

  startTask(name: string, payload: unknown, options: StartTaskOptions): void {
    const config = this.#env.config;
    spawnTask({
      ...options,
      log: this.log,
      message: {
        type: 'task',
        task: name,
        title: options.title ?? name,
        payload,
        configDir: config.config_dir,
        config: JSON.parse(JSON.stringify(config)) as Record<string, unknown>,
        // plugins do not cross a process boundary: the task's process loads the config itself
        reloadConfig: (config.plugins ?? []).length > 0,
      },
    });
  }
}

/** The kernel's own view of a context its request handler made. */
export function requestContext(ctx: CommandContext): RequestContext {
  if (!(ctx instanceof RequestContext)) throw new TypeError('not a request server context');
  return ctx;
}
