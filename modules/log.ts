/**
 * Salt's `log` execution module (`salt/modules/logmod.py`): writes a message to the minion's
 * log at a level and returns True. Templates call it (`salt['log.debug'](...)` in formulas).
 */
import type { z as Zod } from 'zod';
import { defineFunction, defineModule, type UnitLogger } from '../kernel/index.js';

type Level = 'debug' | 'info' | 'warn' | 'error';

function logAt(level: Level, doc: string) {
  return defineFunction({
    args: (z: typeof Zod) => z.object({ message: z.unknown() }),
    doc: `${doc}\n\nCLI Example:\n\n    salt '*' log.${level === 'warn' ? 'warning' : level} 'Please dont do that, this will hurt'`,
    run: (ctx, { message }) => {
      (ctx.log as UnitLogger)[level]({ module: 'log' }, String(message));
      return true;
    },
  });
}

export default defineModule({
  name: 'log',
  doc: 'Log a message to the minion log from the CLI, a template or a state.',
  functions: {
    debug: logAt('debug', 'Log message at level DEBUG.'),
    info: logAt('info', 'Log message at level INFO.'),
    warning: logAt('warn', 'Log message at level WARNING.'),
    error: logAt('error', 'Log message at level ERROR.'),
    critical: logAt('error', 'Log message at level CRITICAL.'),
    exception: logAt('error', 'Log message at level EXCEPTION.'),
  },
});
