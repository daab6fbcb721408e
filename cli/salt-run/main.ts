/**
 * `salt-run FUN [ARGS...]`: start a runner on the local master (the `runner` clear command)
 * and print what it prints, its progress events and its return as Salt does. Exit code: the
 * runner's `retcode` when it set one, else 1 when it failed (`success: false`), else 0. Run by
 * cli/salt-run.ts (ES modules) and by its single-file build (cli/salt-run/bundled.ts).
 */
import { resolve } from 'node:path';
import { RunnerClient } from '../../client/runner-client.js';
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { resolveColor } from '../../outputters/colors.js';
import type { OutputOptions } from '../../outputters/types.js';
import { loadConfigCached } from '../config-cache.js';
import { exitWhenWritten } from '../stdio.js';
import { fail } from '../usage-error.js';
import { parseSaltRunCommandLine } from './options.js';

/** After the master's own bound (`-t`), how long salt-run still waits for the error return. */
const GRACE_MS = 15_000;

/** Runs `salt-run` with command line `argv` (as `process.argv`). */
export async function runMain(argv: readonly string[]): Promise<void> {
  const inv = parseSaltRunCommandLine(argv);
  const { opts } = inv;
  const config: ResolvedMasterConfig = await loadConfigCached('master', resolve(opts.configDir)).then(
    (l) => l.config,
    (err: unknown) => fail('salt-run', err, 2),
  );
  // Salt's get_printout: `--out highstate` keeps the function's own outputter (highstate for
  // state functions), so that it never chokes on other returns.
  const outFlag = opts.out ?? opts.output;
  const outName = outFlag === 'highstate' ? undefined : outFlag;
  let render: OutputOptions = {
    color: resolveColor({
      noColor: opts.color === false,
      configColor: process.stdout.isTTY ? config.color : false,
      forceColor: Boolean(opts.forceColor),
      isTTY: Boolean(process.stdout.isTTY),
    }),
    indent: opts.outIndent ?? opts.outputIndent,
  };
  // the highstate options (config and flags) load with the first outputter other than nested:
  // their option set is zod's, which most runners' output never needs
  let stateOptionsAdded = false;

  async function display(data: unknown, declared?: string): Promise<void> {
    const { resolveOutputterAsync } = await import('../../outputters/extension-outputters.js');
    const outputter = await resolveOutputterAsync(outName ?? declared, config);
    if (outputter.name !== 'nested' && !stateOptionsAdded) {
      stateOptionsAdded = true;
      const { stateOutputOptions } = await import('../state-output.js');
      render = { ...render, ...stateOutputOptions(config, opts) };
    }
    const text = outputter.render(data, render);
    if (text) process.stdout.write(`${text}\n`);
  }

  function exitCodeOf(ret: Record<string, unknown>): number {
    if (typeof ret.retcode === 'number') return ret.retcode;
    const data = ret.return as { data?: { retcode?: unknown } } | undefined;
    if (data && typeof data === 'object' && typeof data.data?.retcode === 'number') return data.data.retcode;
    return ret.success === false ? 1 : 0;
  }

  if (inv.fun === 'state.event' && !opts.doc) {
    // Salt runs it in salt-run's own process: it only reads the bus, and ends with salt-run.
    const { stateEventOptions, streamEvents } = await import('./state-event.js');
    const abort = new AbortController();
    process.once('SIGINT', () => abort.abort());
    await streamEvents(
      config,
      stateEventOptions(inv.arg),
      (line) => process.stdout.write(line),
      abort.signal,
    );
    await exitWhenWritten(0);
  }

  const client = new RunnerClient(config);
  let code = 0;
  try {
    await client.listen();
    // no function: Salt prints every runner's doc (nested), as for a function it cannot find
    const allDocs = !opts.doc && !inv.fun;
    const call =
      opts.doc || allDocs
        ? { fun: 'doc.runner', arg: inv.fun ? [inv.fun] : [] }
        : { fun: inv.fun, arg: inv.arg, ...(opts.timeout !== undefined && { timeout: opts.timeout }) };
    const { jid, tag } = await client.runner(call);
    if (opts.async) {
      process.stderr.write(
        `[WARNING ] Running in asynchronous mode. Results of this execution may be collected by attaching to the master event bus or by examining the master job cache, if configured. This execution is running under tag ${tag}\n`,
      );
      process.stdout.write(`${jid}\n`);
    } else {
      process.once('SIGINT', () => {
        process.stdout.write(
          `\nExiting gracefully on Ctrl-c\nThis runner's jid is: ${jid}\nTo look up its return later, run:\n\nsalt-run jobs.lookup_jid ${jid}\n`,
        );
        void client.close().finally(() => process.exit(1));
      });
      const waitMs = opts.timeout !== undefined ? opts.timeout * 1000 + GRACE_MS : undefined;
      let ret: Record<string, unknown> | undefined;
      for await (const ev of client.events(jid, waitMs)) {
        if (ev.suffix === 'new') continue;
        if (ev.suffix === 'print') {
          const out = ev.data.stream === 'stderr' ? process.stderr : process.stdout;
          out.write(String(ev.data.text ?? ''));
        } else if (ev.suffix === 'ret') {
          ret = ev.data;
        } else if (!opts.doc) {
          // Salt's print_async_event: other events print as {suffix, event}
          const { _stamp, ...event } = ev.data;
          void _stamp;
          const declared = typeof event.outputter === 'string' ? event.outputter : undefined;
          await display(declared && 'data' in event ? event.data : { suffix: ev.suffix, event }, declared);
        }
      }
      if (!ret) {
        process.stderr.write(
          `ERROR: runner ${call.fun} did not return within ${opts.timeout ?? '?'} s. Its jid is ${jid}; look it up later with: salt-run jobs.lookup_jid ${jid}\n`,
        );
        code = 1;
      } else if (allDocs) {
        await display(ret.return, 'nested');
      } else if (opts.doc && ret.success !== false && ret.return && typeof ret.return === 'object') {
        const docs = ret.return as Record<string, string>;
        for (const name of Object.keys(docs).sort()) process.stdout.write(`${name}:\n${docs[name]}\n\n`);
      } else {
        let value = ret.return;
        let declared = typeof ret.outputter === 'string' ? ret.outputter : undefined;
        if (value && typeof value === 'object' && !Array.isArray(value)) {
          const keys = Object.keys(value);
          if (keys.length === 2 && keys.includes('data') && keys.includes('outputter')) {
            const v = value as { data: unknown; outputter: unknown };
            declared = String(v.outputter);
            value = v.data;
          }
        }
        await display(value, declared);
        code = exitCodeOf(ret);
      }
    }
  } catch (err) {
    await client.close();
    process.stderr.write(`ERROR: ${(err as Error).message ?? String(err)}\n`);
    await exitWhenWritten(2);
  }
  await client.close();
  await exitWhenWritten(code);
}
