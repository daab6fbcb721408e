/**
 * Salt's `config` wheel (`salt/wheel/config.py`): the master's configuration.
 */
import { defineWheel, defineWheelFunction } from '../../../kernel/runners/define.js';

/** Config keys whose values are secrets and never leave the master. */
const SECRET = /(^|_)(password|passwd|secret|token|key_pass|signing_key_pass)$/i;

function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null)) as unknown;
}

export default defineWheel({
  name: 'config',
  doc: 'Manage the master configuration.',
  functions: {
    values: defineWheelFunction({
      doc: "Return the master's resolved configuration (secret-looking values are masked).",
      run: (ctx) => {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(ctx.opts)) out[k] = SECRET.test(k) && v ? '********' : plain(v);
        return out;
      },
    }),
  },
});
