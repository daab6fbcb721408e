/**
 * The request commands of the job path, which the kernel keeps as the store of record: sign-in
 * (`_auth`), `publish`, a minion's `_return` and `_minion_event`, and `ping`. Registered first,
 * through the same registry as every plugin's, so no plugin can take their names.
 */
import { defineCommand } from '../kernel/commands/define.js';
import type { PublishRequest } from '../kernel/jobs/types.js';
import { definePlugin, type KernelPlugin } from '../kernel/plugin.js';
import { type AuthLoad, handleAuth } from './handlers/auth.js';
import type { HandlerEnv } from './handlers/context.js';
import { handleMinionEvent, minionErrorLine } from './handlers/minion-event.js';
import { handlePublish } from './handlers/publish.js';
import { handleReturn } from './handlers/return.js';
import { requestContext } from './request-context.js';

/** The job path's commands, answered with the handler env `env()` gives once it is built. */
export function requestCorePlugin(env: () => HandlerEnv): KernelPlugin {
  return definePlugin({
    name: 'tsalt:request-core',
    daemons: ['master'],
    apply(api) {
      const register = api.commands.register;
      register(
        defineCommand({
          cmd: '_auth',
          enc: 'clear',
          handle: (load, ctx) => {
            const { version, effects } = requestContext(ctx);
            return handleAuth(env(), load as unknown as AuthLoad, version, effects);
          },
        }),
      );
      register(
        defineCommand({
          cmd: 'publish',
          enc: 'clear',
          handle: (load, ctx) =>
            handlePublish(env(), load as unknown as PublishRequest, requestContext(ctx).effects),
        }),
      );
      register(defineCommand({ cmd: 'ping', enc: 'clear', handle: (load) => load }));
      register(
        defineCommand({
          cmd: '_return',
          enc: 'aes',
          lane: 'light',
          handle: (load, ctx) => handleReturn(env(), load, requestContext(ctx).effects),
        }),
      );
      register(
        defineCommand({
          cmd: '_minion_event',
          enc: 'aes',
          lane: 'light',
          handle: (load, ctx) => {
            const error = minionErrorLine(load);
            if (error) ctx.log.error({ id: ctx.id }, error);
            return handleMinionEvent(load, requestContext(ctx).effects, (m) =>
              ctx.log.warn({ id: ctx.id }, m),
            );
          },
        }),
      );
    },
  });
}
