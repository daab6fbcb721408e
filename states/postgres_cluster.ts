/**
 * Salt's `postgres_cluster` state module (`salt/states/postgres_cluster.py`): a Debian
 * PostgreSQL cluster (version/name) present or absent, through `postgres.cluster_*`
 * (`pg_createcluster`, `pg_lsclusters`, `pg_dropcluster`). A cluster that exists with another
 * port or data directory is an error: those are not changed on the fly.
 */

import { which } from '../modules/_which.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { pgName } from './_pg-state-args.js';

type Info = { port: number; datadir: string };

const present = defineState({
  args: (z) =>
    z.object({
      version: pgName(z),
      name: pgName(z),
      port: z.unknown().default(null),
      encoding: z.unknown().default(null),
      locale: z.unknown().default(null),
      datadir: z.unknown().default(null),
      allow_group_access: z.unknown().default(null),
      data_checksums: z.unknown().default(null),
      wal_segsize: z.unknown().default(null),
    }),
  doc: `Ensure that the named cluster of a PostgreSQL version is present (pg_createcluster(1)).

port, datadir: checked on an existing cluster; encoding, locale, allow_group_access, data_checksums, wal_segsize: used on creation.`,
  async run(ctx, a): Promise<StateReturn> {
    const { version, name } = a;
    const id = `${version}/${name}`;
    const ret: StateReturn = { name, changes: {}, result: true, comment: `Cluster ${id} is already present` };
    if (await ctx.call('postgres.cluster_exists', [version, name])) {
      const info = ((await ctx.call('postgres.cluster_list', [], { verbose: true })) as Record<string, Info>)[
        id
      ];
      const wrongPort = Boolean(a.port) && Number(a.port) !== info?.port;
      const wrongDir = Boolean(a.datadir) && a.datadir !== info?.datadir;
      if (wrongPort || wrongDir)
        return {
          ...ret,
          result: false,
          comment: `Cluster ${id} has wrong parameters which couldn't be changed on fly.`,
        };
      return ret;
    }
    if (ctx.test) return { ...ret, result: null, comment: `Cluster ${id} is set to be created` };
    const { port, locale, encoding, datadir, allow_group_access, data_checksums, wal_segsize } = a;
    const kw = {
      version,
      name,
      port,
      locale,
      encoding,
      datadir,
      allow_group_access,
      data_checksums,
      wal_segsize,
    };
    if (await ctx.call('postgres.cluster_create', [], kw))
      return { ...ret, comment: `The cluster ${id} has been created`, changes: { [id]: 'Present' } };
    return { ...ret, result: false, comment: `Failed to create cluster ${id}` };
  },
});

const absent = defineState({
  args: (z) => z.object({ version: pgName(z), name: pgName(z) }),
  doc: 'Ensure that the named cluster is absent (stopped first).',
  async run(ctx, a): Promise<StateReturn> {
    const { version, name } = a;
    const id = `${version}/${name}`;
    const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
    if (await ctx.call('postgres.cluster_exists', [version, name])) {
      if (ctx.test) return { ...ret, result: null, comment: `Cluster ${id} is set to be removed` };
      if (await ctx.call('postgres.cluster_remove', [version, name, true]))
        return { ...ret, comment: `Cluster ${id} has been removed`, changes: { [name]: 'Absent' } };
    }
    return { ...ret, comment: `Cluster ${id} is not present, so it cannot be removed` };
  },
});

export default defineStateModule({
  name: 'postgres_cluster',
  doc: "Management of Debian's PostgreSQL clusters.",
  virtual: () =>
    which('pg_createcluster') !== null || {
      ok: false,
      reason: 'Unable to load postgres module.  Make sure `postgres.bins_dir` is set.',
    },
  functions: { present, absent },
});
