/**
 * The salt-master main process: checks and prepares its directories, keys and ports, then
 * starts its children under a ProcessManager (publisher; request server, which hosts the event
 * bus and maintenance) and rotates the AES key when maintenance asks.
 */
import { mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { ensurePkiDirs } from '../kernel/auth/pki.js';
import { EventFirer, masterEventAddresses } from '../kernel/bus/event-bus.js';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import { bootEnv, holdsCode, resolvedForChildren } from '../kernel/daemon/boot.js';
import { ensureDirs } from '../kernel/process/dirs.js';
import { removePidfile, writePidfile } from '../kernel/process/pidfile.js';
import { assertPortFree } from '../kernel/process/ports.js';
import { ProcessManager } from '../kernel/process/process-manager.js';
import { engineUnits, processUnits, unitChildName } from '../kernel/units/unit-ref.js';
import { rotateAesKey } from './aes-key.js';
import { createMasterKernel } from './master-kernel.js';
import { ensureMasterKeys } from './master-keys.js';
import { runAsUser } from './run-as-user.js';
import { writeUserKey } from './user-keys.js';

export interface MasterHandle {
  readonly pm: ProcessManager;
  stop(): Promise<void>;
}

/**
 * The master's own children. The request server hosts the event bus and maintenance, which
 * Salt runs as processes of their own (master/children/request-server.ts says why).
 */
const CHILDREN = ['publisher', 'request-server'] as const;

/**
 * A small young generation for the children's main threads (the request workers set their own,
 * master/children/request-server.ts). They allocate little that lives, and V8 otherwise
 * grows each one to 16 MiB semi-spaces that stay resident: at 2,000 swarm minions the request
 * server's PSS was 173 MiB with the default and 133 MiB with this; CPU per return did not move
 * beyond the noise (240-250 against 252-275 µs). (The request server has since set 4 MiB of its
 * own below: flags later on the command line win, see argvWith.)
 */
const CHILD_NODE_FLAGS = ['--max-semi-space-size=1'];

/**
 * The request server's main thread handles every minion's returns itself, and with that young
 * generation much of what it allocates is promoted and dies old: V8 let its old generation grow
 * to ~3× what was live before collecting it. A growing factor of 1.5 held the request server's
 * PSS at 10,000 swarm minions to 249 MiB instead of 343 (before the router thread handled
 * returns: 300), for ~10% more of its CPU per return (123-127 against 108-116 µs at 2,000).
 * A factor of 2 (100 %) is the compromise kept: against 1.5, the master's PSS at 10,000 is
 * 387-400 MiB instead of 352-363 (the goal is 450), and the request server's CPU per return at 2,000
 * 101-112 µs instead of 119-140 (alternating runs).
 *
 * Its semi-spaces are 4 MiB, not the other children's 1: it scavenges a quarter as often (108
 * against 441 times per 20,000 returns, 291 against 543 ms of pauses, `--trace-gc`). At 2,000
 * swarm minions its CPU per return fell from 137-147 to
 * 96-116 µs, and the `test.ping` median at 10,000 from 1.73-2.24 to 1.67-1.78 s (alternating runs);
 * the master's PSS at 10,000 rose from 367-380 to 387-396 MiB. 8 MiB was slower and larger.
 * V8 flags are per process, so its worker threads get them too (they set their own young
 * generation, request-server.ts).
 *
 * The growing factor is 1.7 since 28 Nov (perfmem7; tools/swarm/README.md): at 10,000 swarm
 * minions, runs alternating with 2 (load 5-10), the master's PSS was 276 MiB with 1.7 on every
 * master process against 286-305 with 2, and the request server's CPU per return within the
 * spread of 2's runs (148 against 135-160 µs); 1.5 held 270 MiB but costs ~10-15 % of its CPU.
 */
const REQUEST_SERVER_NODE_FLAGS = ['--heap-growing-percent=70', '--max-semi-space-size=4'];

/**
 * The publisher's old generation grows by half of what was live, not by V8's default: it holds
 * one socket per minion (~50 MiB at 10,000) and spends ~11-13 µs of CPU per return, so the
 * extra collections cost nothing measurable in a return's ~400-470 µs.
 */
const PUBLISHER_NODE_FLAGS = ['--heap-growing-percent=50'];

function childPath(name: string): string {
  return fileURLToPath(new URL(`./children/${name}.js`, import.meta.url));
}

/** Starts a master; resolves once every child is ready. */
export async function startMaster(
  config: ResolvedMasterConfig,
  boot: { configDir: string; overrides: Record<string, unknown> },
  log: Logger,
): Promise<MasterHandle> {
  // the plugins first: one whose apply throws stops the start before anything is written
  const kernel = await createMasterKernel(config, log);
  const processes = kernel.processes.names().map((name) => kernel.processes.get(name)!);
  await kernel.shutdown();
  await ensureDirs([
    { path: config.pki_dir, mode: 0o700 },
    { path: config.cachedir, mode: 0o755 },
    { path: config.sock_dir, mode: 0o750 },
    { path: dirname(config.pidfile) },
  ]);
  for (const sub of ['jobs', 'sessions', 'proc', 'minions']) {
    await mkdir(`${config.cachedir}/${sub}`, { recursive: true });
  }
  await writePidfile(config.pidfile);
  try {
    await assertPortFree(config.interface, config.publish_port);
    await assertPortFree(config.interface, config.ret_port);
    await ensurePkiDirs(config.pki_dir);
    await ensureMasterKeys(config.pki_dir, config.keysize);
    await rotateAesKey(config.cachedir);
    await writeUserKey(config.cachedir, config.user ?? userInfo().username);
    if ((config.user ?? userInfo().username) !== userInfo().username) {
      await writeUserKey(config.cachedir, userInfo().username);
    }
    // Salt's `user:` (verify_env, then check_user): every child starts as that user
    const owned = config.verify_env ? [config.pki_dir, config.cachedir, config.sock_dir] : [];
    const user = runAsUser(config.user, { dirs: owned, files: [config.log_file, config.pidfile] });
    if (user) log.info({ user: user.name, uid: user.uid }, 'running as the configured user');
  } catch (err) {
    await removePidfile(config.pidfile);
    throw err;
  }

  const pm = new ProcessManager({ log, killTimeoutMs: config.process_kill_timeout_ms });
  const env = bootEnv({
    kind: 'master',
    configDir: boot.configDir,
    overrides: boot.overrides,
    resolved: resolvedForChildren(config),
    // code in the config does not cross a process boundary: the processes that need it load the
    // config themselves (plugins: every process that applies them; reactions: the reactor)
    hasPlugins: config.plugins.length > 0,
    hasCode: holdsCode(config.extra),
  });
  // the parent's flags last, so that an operator's own flags win
  const argvWith = (own: readonly string[]): string[] => [...CHILD_NODE_FLAGS, ...own, ...process.execArgv];
  const execArgv = argvWith([]);
  for (const name of CHILDREN) {
    const own = argvWith(name === 'request-server' ? REQUEST_SERVER_NODE_FLAGS : PUBLISHER_NODE_FLAGS);
    pm.add({ name, modulePath: childPath(name), env, restart: 'always', execArgv: own });
  }
  // the processes plugins add (the built-in reactor, event-return and netapi among them), each
  // in a child that applies the same plugins and starts the one it is named for
  for (const def of processes) {
    const own = def.execArgv ? [...def.execArgv, ...process.execArgv] : execArgv;
    pm.add({
      name: def.name,
      modulePath: childPath('plugin-process'),
      args: [def.name],
      env,
      restart: 'always',
      execArgv: own,
    });
  }
  // ext_processes and engines: one child each, restarted with backoff when they die
  for (const unit of [...processUnits(config.ext_processes), ...engineUnits(config.engines)]) {
    pm.add({
      name: unitChildName(unit),
      modulePath: childPath('unit-process'),
      args: [JSON.stringify(unit)],
      env,
      restart: 'always',
    });
  }

  pm.on('message', (proc, msg) => {
    const type = (msg as { type?: string }).type;
    if (proc.name === 'request-server' && type === 'rotate-aes') void rotateAes();
    // the cluster process wrote the cluster's shared AES key into `.aes` (plugins/cluster)
    if (proc.name === 'cluster' && type === 'aes-adopted') void reloadAes();
  });
  pm.on('restart', (proc, info) => {
    log.warn({ process: proc.name, restarts: proc.restarts, exit: info.exit }, 'child restarted');
    void fireMasterEvent(`tsalt/process/${proc.name}/restart`, {
      name: proc.name,
      restarts: proc.restarts,
      exit_code: info.exit.code,
      signal: info.exit.signal,
    });
  });

  /** Fires one event on the master bus from this (parent) process; failures are logged. */
  async function fireMasterEvent(tag: string, data: Record<string, unknown>): Promise<void> {
    try {
      const firer = new EventFirer(masterEventAddresses(config.sock_dir));
      firer.fire(tag, data);
      await firer.close();
    } catch (err) {
      log.warn({ err, tag }, 'event not fired');
    }
  }

  async function rotateAes(): Promise<void> {
    try {
      await rotateAesKey(config.cachedir);
      await pm.send('publisher', { type: 'aes-rotated' });
      await pm.send('request-server', { type: 'aes-rotated' });
      const firer = new EventFirer(masterEventAddresses(config.sock_dir));
      firer.fire('key', { rotate_aes_key: true });
      await firer.close();
      log.info('AES key rotated');
    } catch (err) {
      log.error({ err }, 'AES key rotation failed');
    }
  }

  /** Has the publisher and request server read `.aes` again, once they are up to hear it. */
  async function reloadAes(): Promise<void> {
    await starting.catch(() => undefined);
    await pm.send('publisher', { type: 'aes-rotated' });
    await pm.send('request-server', { type: 'aes-rotated' });
  }

  const starting = pm.start();
  try {
    await starting;
  } catch (err) {
    await removePidfile(config.pidfile).catch(() => false);
    throw err;
  }
  log.info({ publish_port: config.publish_port, ret_port: config.ret_port }, 'salt-master started');
  let stopping: Promise<void> | undefined;
  return {
    pm,
    stop() {
      stopping ??= (async () => {
        await pm.stop();
        // a master that became its `user:` may not remove a pidfile in a root-owned folder
        await removePidfile(config.pidfile).catch((err: unknown) =>
          log.info({ err: (err as Error).message }, 'pidfile not removed'),
        );
        log.info('salt-master stopped');
      })();
      return stopping;
    },
  };
}
