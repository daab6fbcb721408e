/**
 * Salt's `sdb` runner (`salt/runners/sdb.py`): the `sdb` execution module's functions on the
 * master, with the master's sdb profiles (plugins/sdb holds the drivers and the lookup).
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction, type RunnerContext } from '../../../kernel/index.js';
import { SDB_HASH_CHARS, sdbDelete, sdbGet, sdbGetOrSetHash, sdbSet } from '../../sdb/index.js';

const sdbCtx = (ctx: RunnerContext) => ({ opts: ctx.opts, log: ctx.log });

export default defineRunner({
  name: 'sdb',
  doc: "Read and write values in the stores the master's sdb profiles describe.",
  functions: {
    get: defineRunnerFunction({
      args: z.object({ uri: z.unknown() }),
      doc: 'Return the value an sdb://<profile>/<key> URI names; any other value is returned unchanged.\n\nCLI Example:\n\n    salt-run sdb.get sdb://mykv/foo',
      run: (ctx, a) => sdbGet(a.uri, sdbCtx(ctx)),
    }),
    set: defineRunnerFunction({
      args: z.object({ uri: z.unknown(), value: z.unknown() }),
      doc: 'Store a value at an sdb://<profile>/<key> URI; False when the URI names no profile.\n\nCLI Example:\n\n    salt-run sdb.set sdb://mykv/foo bar',
      run: (ctx, a) => sdbSet(a.uri, a.value, sdbCtx(ctx)),
    }),
    delete: defineRunnerFunction({
      args: z.object({ uri: z.unknown() }),
      doc: 'Remove the value at an sdb://<profile>/<key> URI; False when the URI names no profile.\n\nCLI Example:\n\n    salt-run sdb.delete sdb://mykv/foo',
      run: (ctx, a) => sdbDelete(a.uri, sdbCtx(ctx)),
    }),
    get_or_set_hash: defineRunnerFunction({
      args: z.object({
        uri: z.unknown(),
        length: z.coerce.number().int().default(8),
        chars: z.string().default(SDB_HASH_CHARS),
      }),
      doc: "Return the value at an sdb://<profile>/<key> URI, first storing a new random string there when it holds none.\n\nCLI Example:\n\n    salt-run sdb.get_or_set_hash 'sdb://mykv/SECRET_KEY' 50",
      run: (ctx, a) => sdbGetOrSetHash(a.uri, sdbCtx(ctx), a.length, a.chars),
    }),
  },
});
