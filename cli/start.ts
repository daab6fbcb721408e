/**
 * `npm start`: a master and one local minion on loopback, with a self-contained config and
 * state under `./.tsalt/` (made on first run, keys auto-accepted), logging to this terminal.
 * Ctrl-C stops both.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { hostname, userInfo } from 'node:os';
import { fileURLToPath } from 'node:url';
import { EMBEDDED_CONFIG_DIR, EMBEDDED_ROOT } from './default-config-dir.js';

function writeIfMissing(path: string, text: string): void {
  if (!existsSync(path)) writeFileSync(path, text);
}

mkdirSync(EMBEDDED_CONFIG_DIR, { recursive: true });
const user = userInfo().username;
writeIfMissing(
  `${EMBEDDED_CONFIG_DIR}/master`,
  [
    '# Made by `npm start`: a master for local use only.',
    `root_dir: ${EMBEDDED_ROOT}`,
    'interface: 127.0.0.1',
    'publish_port: 4505',
    'ret_port: 4506',
    `user: ${user}`,
    'auto_accept: true',
    'log_level: info',
    '',
  ].join('\n'),
);
writeIfMissing(
  `${EMBEDDED_CONFIG_DIR}/minion`,
  [
    '# Made by `npm start`: the local minion.',
    `id: ${hostname().split('.')[0] || 'local-minion'}`,
    `root_dir: ${EMBEDDED_ROOT}`,
    'master: 127.0.0.1',
    'master_port: 4506',
    `user: ${user}`,
    'acceptance_wait_time: 1',
    'log_level: info',
    '',
  ].join('\n'),
);

const cliDir = fileURLToPath(new URL('./', import.meta.url));
function run(name: string): ReturnType<typeof spawn> {
  return spawn(process.execPath, [`${cliDir}${name}.js`, '-c', EMBEDDED_CONFIG_DIR], { stdio: 'inherit' });
}

process.stderr.write(
  `tsalt: state in ${EMBEDDED_ROOT}; try \`bin/salt '*' test.ping\` in another terminal. Ctrl-C stops.\n`,
);
const master = run('salt-master');
let minion: ReturnType<typeof spawn> | undefined;
// the minion starts once the master's request port answers: a loaded machine can take seconds
// to bring the master up, and a minion started before it would time out its first sign-in
// (a config the master cannot load stops the master, which stops this too)
const minionTimer = setTimeout(() => void whenMasterListens().then(startMinion, () => undefined), 100);
function startMinion(): void {
  if (stopping) return;
  minion = run('salt-minion');
  minion.on('exit', (code) => {
    if (!stopping) {
      process.stderr.write(`tsalt: the minion exited (${code}); stopping\n`);
      stop();
    }
  });
}

/** Resolves once the master's `ret_port` accepts a connection (or the master has exited). */
async function whenMasterListens(): Promise<void> {
  const { loadConfig } = await import('../kernel/config/index.js');
  const { config } = await loadConfig('master', EMBEDDED_CONFIG_DIR);
  const host = ['0.0.0.0', '::'].includes(config.interface) ? '127.0.0.1' : config.interface;
  while (!stopping && master.exitCode === null && !(await accepts(host, config.ret_port))) {
    await new Promise((r) => setTimeout(r, 100));
  }
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect({ host, port }, () => {
      sock.destroy();
      resolve(true);
    });
    sock.on('error', () => resolve(false));
  });
}
let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  clearTimeout(minionTimer);
  minion?.kill('SIGTERM');
  master.kill('SIGTERM');
}
master.on('exit', (code) => {
  if (!stopping) process.stderr.write(`tsalt: the master exited (${code}); stopping\n`);
  stopping = true;
  minion?.kill('SIGTERM');
  const wait =
    minion && minion.exitCode === null ? new Promise((r) => minion?.once('exit', r)) : Promise.resolve();
  void wait.then(() => process.exit(code ?? 0));
});
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
