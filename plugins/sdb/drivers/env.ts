/**
 * The `env` sdb driver (Salt's `salt/sdb/env.py`): the process environment. `get` reads a
 * variable (`null` when unset); `set` is Python's `os.environ.setdefault`, so an existing value
 * is kept and returned. It has no `delete`, as in Salt.
 */
import { pyTypeName } from '../../../kernel/util.js';
import { defineSdb } from '../define.js';
import { SALT_ERR_SDB_VALUE } from '../errors.js';

export default defineSdb({
  name: 'env',
  doc: 'Environment variables of the process that reads them.',
  get: (key) => process.env[key] ?? null,
  set(key, value) {
    const existing = process.env[key];
    if (existing !== undefined) return existing;
    if (typeof value !== 'string') throw new SALT_ERR_SDB_VALUE(`str expected, not ${pyTypeName(value)}`);
    process.env[key] = value;
    return value;
  },
});
