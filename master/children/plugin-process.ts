/**
 * A master child that runs one process a plugin registered (`api.processes`), named by the
 * first command-line argument: it applies the master's plugins as every master process does,
 * finds the definition and starts it, and reports ready once its `start` has resolved. A
 * failure at start is the child's fatal error (the master refuses to start with it); a child
 * that dies later is restarted by the ProcessManager with capped backoff.
 */
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { readBoot } from '../../kernel/daemon/boot.js';
import { runChild } from '../../kernel/daemon/child-runtime.js';
import { SALT_ERR_PROCESS_UNKNOWN } from '../../kernel/errors.js';
import { masterProcessContext } from '../../kernel/units/context.js';
import { createMasterKernel } from '../master-kernel.js';

const name = process.argv[2] ?? '';

await runChild<ResolvedMasterConfig>(
  name,
  async ({ config, log, configDir }) => {
    const kernel = await createMasterKernel(config, log);
    const def = kernel.processes.get(name);
    if (!def) throw new SALT_ERR_PROCESS_UNKNOWN(name);
    const abort = new AbortController();
    const opts = config as unknown as Readonly<Record<string, unknown>>;
    const bus = masterProcessContext({ name, start: () => undefined }, opts, {}, log, abort.signal);
    const stop = await def.start({
      name,
      config: opts,
      configDir,
      log,
      fire: bus.fire,
      listen: bus.listen,
      signal: abort.signal,
      kinds: kernel.kinds,
    });
    return async () => {
      abort.abort();
      try {
        await stop();
      } finally {
        await bus.close();
        await kernel.shutdown();
      }
    };
  },
  // code in the config (plugins, reactions) is loaded here: the parent's copy has none
  { needsPlugins: readBoot().hasPlugins === true || readBoot().hasCode === true },
);
