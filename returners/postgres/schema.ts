/**
 * The tables of the `postgres` job store: Salt's `pgjsonb` layout (`jids`, `salt_returns`,
 * `salt_events`) plus what a job cache needs beyond it: the targeted minions, the function
 * names and targets as searchable columns, the creation time, a unique (jid, id) so a replayed
 * return is refused, `salt_end_states` for minions that did not return, and `salt_functions`
 * (every function name, so a function glob becomes an index lookup).
 * Created on first use, under an advisory lock so masters starting at once do not race.
 */
import type { PoolClient } from 'pg';

/** Any number: it only has to be the same for every tsalt master on the database. */
const SCHEMA_LOCK = 0x7a5a17;

const DDL = [
  `CREATE TABLE IF NOT EXISTS jids (
     jid varchar(255) NOT NULL PRIMARY KEY,
     load jsonb NOT NULL)`,
  'ALTER TABLE jids ADD COLUMN IF NOT EXISTS minions jsonb',
  'ALTER TABLE jids ADD COLUMN IF NOT EXISTS funs text[]',
  'ALTER TABLE jids ADD COLUMN IF NOT EXISTS tgts text[]',
  'ALTER TABLE jids ADD COLUMN IF NOT EXISTS nocache boolean NOT NULL DEFAULT false',
  'ALTER TABLE jids ADD COLUMN IF NOT EXISTS created timestamptz NOT NULL DEFAULT now()',
  'CREATE INDEX IF NOT EXISTS idx_jids_funs ON jids USING gin (funs)',
  'CREATE INDEX IF NOT EXISTS idx_jids_tgts ON jids USING gin (tgts)',
  'CREATE INDEX IF NOT EXISTS idx_jids_minions ON jids USING gin (minions)',
  // Jobs a Salt pgjsonb master stored: their functions and targets as searchable columns.
  `UPDATE jids SET
     funs = CASE jsonb_typeof(load->'fun') WHEN 'array'
       THEN ARRAY(SELECT jsonb_array_elements_text(load->'fun')) ELSE ARRAY[load->>'fun'] END,
     tgts = CASE jsonb_typeof(load->'tgt') WHEN 'array'
       THEN ARRAY(SELECT jsonb_array_elements_text(load->'tgt')) ELSE ARRAY[load->>'tgt'] END
   WHERE funs IS NULL AND jsonb_typeof(load) = 'object'`,
  // Every function name ever stored: a function glob is matched here, then looked up by index.
  'CREATE TABLE IF NOT EXISTS salt_functions (fun text NOT NULL PRIMARY KEY)',
  `INSERT INTO salt_functions SELECT DISTINCT unnest(funs) FROM jids WHERE funs IS NOT NULL
   ON CONFLICT DO NOTHING`,
  'CREATE INDEX IF NOT EXISTS idx_jids_created ON jids (created)',
  `CREATE TABLE IF NOT EXISTS salt_returns (
     fun text NOT NULL,
     jid varchar(255) NOT NULL,
     return jsonb NOT NULL,
     id varchar(255) NOT NULL,
     success varchar(10) NOT NULL,
     full_ret jsonb NOT NULL,
     alter_time timestamptz DEFAULT now())`,
  'CREATE UNIQUE INDEX IF NOT EXISTS idx_salt_returns_jid_id ON salt_returns (jid, id)',
  'CREATE INDEX IF NOT EXISTS idx_salt_returns_id ON salt_returns (id)',
  'CREATE INDEX IF NOT EXISTS idx_salt_returns_fun ON salt_returns (fun, id, jid)',
  'CREATE INDEX IF NOT EXISTS idx_salt_returns_alter_time ON salt_returns (alter_time)',
  'CREATE SEQUENCE IF NOT EXISTS seq_salt_events_id',
  `CREATE TABLE IF NOT EXISTS salt_events (
     id bigint NOT NULL UNIQUE DEFAULT nextval('seq_salt_events_id'),
     tag varchar(255) NOT NULL,
     data jsonb NOT NULL,
     alter_time timestamptz DEFAULT now(),
     master_id varchar(255) NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS idx_salt_events_tag ON salt_events (tag)',
  'CREATE INDEX IF NOT EXISTS idx_salt_events_alter_time ON salt_events (alter_time)',
  `CREATE TABLE IF NOT EXISTS salt_end_states (
     jid varchar(255) NOT NULL,
     id varchar(255) NOT NULL,
     state varchar(20) NOT NULL,
     alter_time timestamptz DEFAULT now(),
     PRIMARY KEY (jid, id))`,
];

/** Whether the newest parts of the schema are there already (then no DDL, and no locks). */
async function schemaPresent(client: PoolClient): Promise<boolean> {
  const res = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM information_schema.columns
      WHERE table_schema = current_schema()
        AND ((table_name = 'jids' AND column_name IN ('created', 'tgts'))
          OR (table_name = 'salt_end_states' AND column_name = 'state')
          OR (table_name = 'salt_functions' AND column_name = 'fun'))`,
  );
  return Number(res.rows[0]?.n) === 4;
}

/** Creates the tables and indexes that are missing; safe when several masters run it at once. */
export async function ensureSchema(client: PoolClient): Promise<void> {
  if (await schemaPresent(client)) return;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    for (const statement of DDL) await client.query(statement);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
