/**
 * The `env` sdb driver (Salt's `salt/sdb/env.py`): the process environment. `get` reads a
 * variable (`null` when unset); `set` is Python's `os.environ.setdefault`, so an existing value
 * is kept and returned. It has no `delete`, as in Salt.
 */

import { SALT_ERR_INVOCATION } from '../../../kernel/index.js';
import { pyTypeName } from '../../../kernel/util.js';
import { defineSdb } from '../define.js';

export default defineSdb({
  name: 'env',
  doc: 'Environment variables of the process that reads them.',
  get: (key) => process.env[key] ?? null,
  set(key, value) {
    const existing = process.env[key];
    if (existing !== undefined) return existing;
    // Python's TypeError, which salt-call reports as invalid arguments
    const type = pyTypeName(value).slice("<class '".length, -2);
    if (typeof value !== 'string') throw new SALT_ERR_INVOCATION(`str expected, not ${type}`);
    process.env[key] = value;
    return value;
  },
});
