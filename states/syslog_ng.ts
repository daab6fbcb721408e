/**
 * Salt's `syslog_ng` state module (`salt/states/syslog_ng.py`): `syslog_ng.config` (syslog-ng
 * config built from the state's YAML and appended to the config file), `started`, `stopped`
 * and `reloaded`. Each answers what the `syslog_ng` execution module's function answers; that
 * function sees the state run's test flag as Salt's shared `__opts__['test']`.
 */
import type { ExecContext } from '../kernel/index.js';
import { startArgs } from '../modules/_syslog-ng-start.js';
import syslogNg from '../modules/syslog_ng.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

type Fn = keyof typeof syslogNg.functions;

/** Runs the module function with the state's test flag in its opts. */
async function viaModule(ctx: StateContext, fn: Fn, args: Record<string, unknown>): Promise<StateReturn> {
  const inner = Object.create(ctx, {
    opts: { value: Object.freeze({ ...ctx.opts, test: ctx.test }), enumerable: true },
  }) as ExecContext;
  const spec = syslogNg.functions[fn] as { run(c: ExecContext, a: unknown, e: unknown): unknown };
  return (await spec.run(inner, args, { args: [], kwargs: {} })) as StateReturn;
}

export default defineStateModule({
  name: 'syslog_ng',
  doc: 'syslog-ng: configuration built from YAML, and started, stopped or reloaded without a service module.',
  functions: {
    config: defineState({
      args: (z) => z.object({ name: z.string(), config: z.unknown(), write: z.unknown().default(true) }),
      doc: "Build syslog-ng configuration from the state's id (or <statement>.<id>) and its YAML; write=True appends it to the config file.",
      run: (ctx, a) => viaModule(ctx, 'config', a),
    }),
    stopped: defineState({
      args: (z) => z.object({ name: z.unknown().default(null) }),
      doc: 'Kill syslog-ng.',
      run: (ctx, a) => viaModule(ctx, 'stop', a),
    }),
    started: defineState({
      args: startArgs,
      varargs: true,
      varkw: true,
      doc: 'Ensure syslog-ng is started with the given options (when no service module manages it).',
      run: (ctx, a) => viaModule(ctx, 'start', a),
    }),
    reloaded: defineState({
      args: (z) => z.object({ name: z.unknown() }),
      doc: 'Reload syslog-ng (syslog-ng-ctl reload).',
      run: (ctx, a) => viaModule(ctx, 'reload', a),
    }),
  },
});
