/**
 * Salt's `config` wheel (`salt/wheel/config.py`): the master's configuration.
 */
import { defineWheel, defineWheelFunction } from '../../../kernel/index.js';

/**
 * Config keys whose values are secrets and never leave the master: any key ending in
 * `secret` (`sharedsecret`), `password`, `passwd`, `token` or `key`, or a `pass` word
 * (`mysql.pass`, `key_pass`), at any depth.
 */
const SECRET = /(?:secret|password|passwd|token|key)$|(?:^|[._-])pass$/i;
const MASK = '********';

/** `value` (plain JSON) with every secret's value masked; flags and empty values are no secret. */
function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const secret = SECRET.test(k) && v !== null && v !== '' && typeof v !== 'boolean';
    out[k] = secret ? MASK : masked(v);
  }
  return out;
}

export default defineWheel({
  name: 'config',
  doc: 'Manage the master configuration.',
  functions: {
    values: defineWheelFunction({
      doc: "Return the master's configuration, as Salt's `config.values`: every option, those tsalt does not use (such as SaltGUI's `saltgui_*`) included, at the top level; secrets (keys ending in secret, password, passwd, token or key, at any depth) are masked.",
      run: (ctx) => {
        const { extra, ...known } = ctx.opts as Record<string, unknown> & { extra?: Record<string, unknown> };
        return masked(JSON.parse(JSON.stringify({ ...known, ...extra })));
      },
    }),
  },
});
