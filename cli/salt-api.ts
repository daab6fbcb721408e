/**
 * `salt-api [-c DIR] [-l LEVEL]`: serves the REST API (plugins/netapi) standalone, against a
 * master running on this host with the same config (as Salt's salt-api does). The master
 * also starts it itself when `rest_cherrypy`/`rest_tornado` is configured; run one or the other.
 */

import { notifyReady } from './sd-notify.js';
import { handleVersionFlag } from './version.js';

handleVersionFlag('salt-api', process.argv);
const { Command } = await import('commander');
const { resolve } = await import('node:path');
const { loadConfigCached } = await import('./config-cache.js');
const { createLogger } = await import('../kernel/log.js');
const { startNetapi } = await import('../plugins/netapi/server.js');
const { createMasterKernel } = await import('../master/master-kernel.js');
const { netapiConfigured } = await import('../plugins/netapi/config.js');
const { netapiMasterOptions } = await import('../plugins/netapi/options.js');
const { defaultConfigDir } = await import('./default-config-dir.js');
const { fail } = await import('./usage-error.js');

const program = new Command('salt-api')
  .description('salt-api compatible REST API for a tsalt master')
  .option('-c, --config-dir <dir>', 'directory of the master config', defaultConfigDir())
  .option('-l, --log-level <level>', 'console log level')
  .option('-d, --daemon', 'run in the background')
  .option('--pid-file <path>', 'pidfile path (written only when given)')
  .allowExcessArguments(false)
  .parse(process.argv);
const o = program.opts<{ configDir: string; logLevel?: string; daemon?: boolean; pidFile?: string }>();
if (o.daemon) {
  const { daemonize } = await import('../kernel/process/daemonize.js');
  await daemonize(process.argv);
  process.exit(0);
}

const config = await loadConfigCached('master', resolve(o.configDir)).then(
  (l) => l.config,
  (err: unknown) => fail('salt-api', err, 2),
);
if (!netapiConfigured(netapiMasterOptions.read(config))) {
  process.stderr.write(
    'salt-api: error: no REST API configured: add a rest_cherrypy block (port, disable_ssl or ssl_crt/ssl_key) to the master config\n',
  );
  process.exit(2);
}
const log = createLogger({
  name: 'salt-api',
  level: o.logLevel ?? config.log_level,
  file: config.log_file,
  fileLevel: config.log_level_logfile ?? config.log_level,
});
let handle: Awaited<ReturnType<typeof startNetapi>>;
let kernel: Awaited<ReturnType<typeof createMasterKernel>>;
try {
  // the REST routes and eauth back ends the master's plugins add, as the master's own netapi
  // process serves them
  kernel = await createMasterKernel(config, log);
  handle = await startNetapi(
    config,
    log,
    kernel.kinds.all('netapi.routes'),
    kernel.kinds.all('netapi.eauth'),
  );
} catch (err) {
  const e = err as { code?: string; message?: string };
  process.stderr.write(`salt-api: error: ${e.message ?? String(err)}${e.code ? ` [${e.code}]` : ''}\n`);
  process.exit(1);
}
if (o.pidFile) {
  const { writePidfile } = await import('../kernel/process/pidfile.js');
  await writePidfile(resolve(o.pidFile)).catch((err: unknown) => fail('salt-api', err, 1));
}
// Salt's `user:`: the port is bound (it may be below 1024), the rest runs as that user
const { runAsUser } = await import('../master/run-as-user.js');
try {
  const user = runAsUser(config.user, {
    dirs: [],
    files: [config.log_file, o.pidFile && resolve(o.pidFile)],
  });
  if (user) log.info({ user: user.name, uid: user.uid }, 'running as the configured user');
} catch (err) {
  void handle.close();
  fail('salt-api', err, 1);
}
log.info({ port: handle.port }, 'salt-api started');
await notifyReady('salt-api started', log);
const stop = (): void => {
  // the plugins' shutdown taps run, as in the master's own processes
  void handle
    .close()
    .then(() => kernel.shutdown())
    .then(async () => {
      if (!o.pidFile) return;
      const { removePidfile } = await import('../kernel/process/pidfile.js');
      await removePidfile(resolve(o.pidFile)).catch(() => false);
    })
    .finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
