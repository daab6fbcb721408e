/**
 * The `postgres` external pillar (Salt's `salt/pillar/postgres.py` over `sql_base.py`): each
 * query runs with the minion id for `%s` and its rows nest into the pillar (sql-rows.ts). The
 * connection comes from the master's `postgres` option (`host`, `user`, `pass`, `db`, `port`;
 * Salt's defaults localhost, salt, salt, salt, 5432). One connection per compile, closed after.
 */
import { defineExtPillar } from '../ext-kind.js';
import type { PillarData } from '../merge.js';
import { extractQueries, processRows } from './sql-rows.js';

interface PgOptions {
  host: string;
  user: string;
  pass: string;
  db: string;
  port: number;
}

function options(opts: Readonly<Record<string, unknown>>): PgOptions {
  const extra = (opts.extra ?? {}) as Record<string, unknown>;
  const given = (opts.postgres ?? extra.postgres ?? {}) as Record<string, unknown>;
  return {
    host: String(given.host ?? 'localhost'),
    user: String(given.user ?? 'salt'),
    pass: String(given.pass ?? 'salt'),
    db: String(given.db ?? 'salt'),
    port: Number(given.port ?? 5432),
  };
}

/** psycopg2's `%s` placeholders as PostgreSQL's `$1` (`%%` is a literal `%`). */
function placeholders(query: string): { text: string; params: number } {
  let params = 0;
  const text = query.replace(/%%|%s/g, (m) => (m === '%%' ? '%' : `$${++params}`));
  return { text, params };
}

export const postgresPillar = defineExtPillar({
  name: 'postgres',
  async run(ctx, args, kwargs) {
    const { default: pg } = await import('pg');
    const o = options(ctx.opts);
    const client = new pg.Client({
      host: o.host,
      user: o.user,
      password: o.pass,
      database: o.db,
      port: o.port,
      connectionTimeoutMillis: 10_000,
      statement_timeout: 30_000,
    });
    await client.connect();
    const result: PillarData = {};
    try {
      for (const [root, q] of extractQueries(args, kwargs)) {
        const { text, params } = placeholders(q.query);
        const res = await client.query({
          text,
          values: Array.from({ length: params }, () => ctx.minionId),
          rowMode: 'array',
        });
        let focus = result;
        if (root) {
          focus = {};
          result[root] = focus;
        }
        processRows(
          focus,
          res.fields.map((f) => f.name),
          res.rows as unknown[][],
          q,
        );
      }
    } finally {
      await client.end().catch(() => undefined);
    }
    return result;
  },
});
