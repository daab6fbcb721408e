/**
 * Issue 4's job store figures: a million returns (100,000 with --quick) into the embedded
 * default store and into Salt's directory layout on the same disk, then into PostgreSQL.
 */
import { jobStoreBench, type Timed } from '../job-store-bench.js';
import { postgresStoreBench } from '../postgres-store-bench.js';
import { details, print, report } from '../report.js';

function ms(t: Timed): number | undefined {
  return typeof t === 'string' ? undefined : t.median;
}

export async function storesSection(quick: boolean): Promise<void> {
  const local = await jobStoreBench({ quick, print });
  details.jobStores = local;
  for (const s of local.stores) {
    const n = s.returns.toLocaleString('en-US');
    report({
      name: `${s.store}: store ${n} returns`,
      value: s.writeSeconds,
      unit: 's',
      method: `${s.jobs} jobs of ${local.minionsPerJob} returns, one returner call each`,
    });
    report({
      name: `${s.store}: disk for ${n} returns`,
      value: s.diskBytes / 1024 / 1024,
      unit: 'MiB',
      method: 'allocated blocks of the store',
    });
    report({
      name: `${s.store}: files and directories`,
      value: s.files,
      unit: 'inodes',
      method: 'entries under the store',
    });
    const lookup = ms(s.lookupJid);
    if (lookup !== undefined)
      report({
        name: `${s.store}: jobs.lookup_jid at ${n}`,
        value: lookup,
        unit: 'ms',
        method: 'getJid + getLoad of a random job, median',
      });
    const search = ms(s.listByFunction);
    if (search !== undefined)
      report({
        name: `${s.store}: jobs.list_jobs search_function at ${n}`,
        value: search,
        unit: 'ms',
        method: 'a function matching ~0.1% of jobs, median',
      });
    else print(`${s.store}: jobs.list_jobs search_function at ${n}: ${String(s.listByFunction)}`);
  }
  try {
    const pg = await postgresStoreBench({ quick, print });
    details.postgres = pg;
    const n = pg.returns.toLocaleString('en-US');
    report({
      name: `postgres: store ${n} returns`,
      value: pg.writeSeconds,
      unit: 's',
      method: `private PostgreSQL (fsync off), ${pg.jobs} jobs`,
    });
    report({
      name: `postgres: tables and indexes for ${n} returns`,
      value: pg.tableBytes / 1024 / 1024,
      unit: 'MiB',
      method: 'pg_total_relation_size',
    });
    report({
      name: `postgres: jobs.lookup_jid at ${n}`,
      value: pg.lookupJid.median,
      unit: 'ms',
      method: 'getJid + getLoad, median',
    });
    report({
      name: `postgres: jobs.list_jobs search_function at ${n}`,
      value: pg.listByFunction.median,
      unit: 'ms',
      method: 'indexed function glob, median',
    });
  } catch (err) {
    print(`postgres store bench skipped: ${(err as Error).message}`);
  }
}
