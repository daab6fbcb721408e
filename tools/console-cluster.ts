/**
 * The throwaway cluster the web console is driven against (test/integration/console.test.ts,
 * tools/console-shots.ts): a master with the REST API (the clients the console uses), two eauth
 * users (`saltdev` allowed everything, `limited` only `test.*`), state and pillar files, and
 * minions, the autosigned ones accepted and the others left pending. The data is the caller's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../kernel/process/ports.js';
import { Cluster } from './local-cluster.js';
import { waitForApi } from './netapi-http.js';

export interface ConsoleMinion {
  readonly id: string;
  /** Minion config added to the cluster's. */
  readonly config?: Record<string, unknown>;
  /** Left pending (not autosigned, not waited for). */
  readonly pending?: boolean;
}

export interface ConsoleClusterSpec {
  /** `srv/salt` files by name. */
  readonly states: Readonly<Record<string, string>>;
  /** `srv/pillar` files by name. */
  readonly pillar: Readonly<Record<string, string>>;
  /** The minions, given the cluster's root folder (for paths in their config). */
  readonly minions: (root: string) => readonly ConsoleMinion[];
  /** Keep the daemons' logs off the console. */
  readonly quiet?: boolean;
}

export interface ConsoleCluster {
  readonly cluster: Cluster;
  /** `http://127.0.0.1:<port>` of the REST API (and of the console at `/console`). */
  readonly base: string;
}

export async function startConsoleCluster(spec: ConsoleClusterSpec): Promise<ConsoleCluster> {
  const port = await freePort();
  const master: Record<string, unknown> = {
    rest_cherrypy: { port, host: '127.0.0.1', disable_ssl: true, rate_limit: 0 },
    netapi_enable_clients: ['local', 'local_async', 'local_batch', 'runner', 'wheel'],
    auto_accept: false,
  };
  const c = new Cluster({ master, quiet: spec.quiet ?? false });
  const minions = spec.minions(c.root);
  const users = join(c.root, 'users.txt');
  const autosign = join(c.root, 'autosign.conf');
  writeFileSync(users, 'saltdev:saltdev\nlimited:pw\n');
  writeFileSync(
    autosign,
    `${minions
      .filter((m) => !m.pending)
      .map((m) => `${m.id}\n`)
      .join('')}`,
  );
  master.autosign_file = autosign;
  const roots = { states: join(c.root, 'srv', 'salt'), pillar: join(c.root, 'srv', 'pillar') };
  for (const [kind, files] of [
    ['states', spec.states],
    ['pillar', spec.pillar],
  ] as const) {
    mkdirSync(roots[kind], { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(roots[kind], name), text);
  }
  master.file_roots = { base: [roots.states] };
  master.pillar_roots = { base: [roots.pillar] };
  master.external_auth = {
    file: { '^filename': users, saltdev: ['.*', '@runner', '@wheel', '@jobs'], limited: ['test.*'] },
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    await c.startMaster();
    await Promise.all(minions.filter((m) => !m.pending).map((m) => c.startMinion(m.id, m.config ?? {})));
    for (const m of minions.filter((x) => x.pending)) await c.startMinion(m.id, m.config ?? {}, false);
    await waitForApi(base);
  } catch (err) {
    // nothing left running when the set-up fails half-way
    await c.stop().catch(() => undefined);
    throw err;
  }
  return { cluster: c, base };
}
