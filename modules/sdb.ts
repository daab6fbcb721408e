/**
 * Salt's `sdb` execution module (`salt/modules/sdb.py`): read, write and delete values of the
 * stores the minion's sdb profiles describe, by `sdb://<profile>/<key>` URI (plugins/sdb holds
 * the drivers and the lookup). A profile is a minion option, or failing that a pillar key.
 */
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { SDB_HASH_CHARS, sdbDelete, sdbGet, sdbGetOrSetHash, sdbSet } from '../plugins/sdb/index.js';
import { pyFlag, pyInt } from './_coerce.js';

const sdbCtx = (ctx: ExecContext) => ({ opts: ctx.opts, log: ctx.log });

export default defineModule({
  name: 'sdb',
  doc: 'Read and write values in the stores sdb profiles describe, by sdb://<profile>/<key> URI.',
  functions: {
    get: defineFunction({
      args: (z) => z.object({ uri: z.unknown(), strict: pyFlag(z, false) }),
      doc: `Return the value an sdb://<profile>/<key> URI names.

A value that is not such a URI, or whose profile is not configured, is returned unchanged;
with strict=True either case is an error instead.

CLI Example:

    salt '*' sdb.get sdb://mykv/foo strict=True`,
      run: (ctx, a) => sdbGet(a.uri, sdbCtx(ctx), a.strict),
    }),
    set: defineFunction({
      pyName: 'set_',
      args: (z) => z.object({ uri: z.unknown(), value: z.unknown() }),
      doc: `Store a value at an sdb://<profile>/<key> URI.

Returns what the profile's driver returns, or False when the URI is not an sdb URI or names
no configured profile.

CLI Example:

    salt '*' sdb.set sdb://mykv/foo bar`,
      run: (ctx, a) => sdbSet(a.uri, a.value, sdbCtx(ctx)),
    }),
    delete: defineFunction({
      args: (z) => z.object({ uri: z.unknown() }),
      doc: `Remove the value at an sdb://<profile>/<key> URI.

Returns what the profile's driver returns, or False when the URI is not an sdb URI or names
no configured profile.

CLI Example:

    salt '*' sdb.delete sdb://mykv/foo`,
      run: (ctx, a) => sdbDelete(a.uri, sdbCtx(ctx)),
    }),
    get_or_set_hash: defineFunction({
      args: (z) =>
        z.object({
          uri: z.unknown(),
          length: pyInt(z).default(8),
          chars: z.string().default(SDB_HASH_CHARS),
        }),
      doc: `Return the value at an sdb://<profile>/<key> URI, first storing a new random string of
\`\`length\`\` characters drawn from \`\`chars\`\` there when it holds none: a secret made once and
shared by every minion that reads the same store. Returns False for a value that is not an
sdb URI.

Quote the result in YAML (it may start with a character YAML treats specially, such as %).

CLI Example:

    salt '*' sdb.get_or_set_hash 'sdb://mykv/SECRET_KEY' 50`,
      run: (ctx, a) => sdbGetOrSetHash(a.uri, sdbCtx(ctx), a.length, a.chars),
    }),
  },
});
