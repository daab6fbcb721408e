/**
 * Where and how `salt` prints: per-minion output as returns arrive (or all at once with
 * `--static`), to stdout or `--out-file`, Salt's summary, and the exit code.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import type { JobReturn } from '../../kernel/jobs/types.js';
import type { OutputterSearch } from '../../outputters/extension-outputters.js';
import { nestedOutputter } from '../../outputters/nested.js';
import type { OutputOptions, Outputter } from '../../outputters/types.js';

export interface PrinterOptions {
  /** `--out`, already found: every return prints with it. */
  outputter?: Outputter;
  /** Where a function's declared outputter that is not built in is looked for. */
  search: OutputterSearch;
  render: OutputOptions;
  /**
   * The state outputter's options (the config's `state_*` options and flags; reading them
   * loads zod, ~90 ms of a run): added to `render` by {@link Printer.prepare} before the first
   * return printed with an outputter other than nested.
   */
  stateRender?: () => Promise<Partial<OutputOptions>>;
  static: boolean;
  /**
   * The function run (a list for several): with `--static`, a `state.*` function prints all
   * returns with the highstate outputter, anything else with nested (Salt's get_printout).
   */
  fun?: string | readonly string[];
  hideTimeout: boolean;
  summary: boolean;
  verbose: boolean;
  retcodePassthrough: boolean;
  outFile?: string;
  append?: boolean;
}

/** Salt's words after `[No response]` and after Ctrl-C, before `salt-run jobs.lookup_jid <jid>`. */
export const LOOKUP_HINT =
  'The minions may not have all finished running and any remaining minions will return upon completion. To look up the return data for this job later, run the following command:';

function retcodeOf(ret: JobReturn): number {
  const rc = ret.retcode;
  if (typeof rc === 'number') return rc;
  return Math.max(0, ...Object.values(rc ?? {}).map(Number));
}

export class Printer {
  readonly #o: PrinterOptions;
  readonly #collected: Record<string, unknown> = {};
  readonly #full: Record<string, { ret: unknown; retcode: number }> = {};
  #maxRetcode = 0;
  #failed = false;
  #first = true;
  /** Batch mode: returns show their `jid` and `retcode`, the exit code is the highest retcode. */
  #batch = false;
  /** The declared outputters {@link prepare} loaded, by the name a return gives. */
  readonly #declared = new Map<string, Outputter>();
  /** `render` with {@link PrinterOptions.stateRender}'s options once {@link prepare} loaded them. */
  #renderOptions: OutputOptions;
  #stateRender: PrinterOptions['stateRender'];

  constructor(opts: PrinterOptions) {
    this.#o = opts;
    this.#renderOptions = opts.render;
    this.#stateRender = opts.stateRender;
    if (opts.outFile && !opts.append) writeFileSync(opts.outFile, '');
  }

  /** Writes text (a line) to stdout or the output file. */
  write(text: string): void {
    if (!text) return;
    if (this.#o.outFile) appendFileSync(this.#o.outFile, `${text}\n`);
    else process.stdout.write(`${text}\n`);
    this.#first = false;
  }

  get printedAnything(): boolean {
    return !this.#first;
  }

  /**
   * Loads the outputter a return declares (its `out`), once, so that it can be rendered
   * synchronously; `--out` overrides every declared one. Call before {@link ret}.
   */
  async prepare(out: string | undefined): Promise<void> {
    const stateRender = this.#stateRender;
    if (stateRender && (this.#o.outputter || (out && out !== 'nested'))) {
      this.#stateRender = undefined;
      this.#renderOptions = { ...this.#renderOptions, ...(await stateRender()) };
    }
    // nested, the default, is always at hand; others are loaded on first use
    if (this.#o.outputter || !out || out === 'nested' || this.#declared.has(out)) return;
    const { resolveOutputterAsync } = await import('../../outputters/extension-outputters.js');
    this.#declared.set(out, await resolveOutputterAsync(out, this.#o.search));
  }

  #render(data: Record<string, unknown>, out: string | undefined, retcode?: number): void {
    const outputter = this.#o.outputter ?? this.#declared.get(out ?? '') ?? nestedOutputter;
    this.write(
      outputter.render(
        data,
        retcode === undefined ? this.#renderOptions : { ...this.#renderOptions, retcode },
      ),
    );
  }

  /** Prints as Salt's batch mode does from now on (salt/cli/batch.py). */
  startBatch(): void {
    this.#batch = true;
  }

  /**
   * A minion's return; in a batch, with the job's `retcode` and `jid` beside it, as Salt shows
   * them (`{retcode, jid, <id>: return}`).
   */
  ret(id: string, ret: JobReturn): void {
    const retcode = retcodeOf(ret);
    this.#maxRetcode = Math.max(this.#maxRetcode, retcode);
    if (retcode !== 0) this.#failed = true;
    this.#full[id] = { ret: ret.return, retcode };
    if (this.#o.static) {
      this.#collected[id] = ret.return;
    } else if (this.#batch) this.#render({ retcode, jid: ret.jid, [id]: ret.return }, ret.out);
    else
      this.#render({ [id]: ret.return }, ret.out, typeof ret.retcode === 'number' ? ret.retcode : undefined);
  }

  /**
   * A minion given up on; with the job's `jid`, a `No response` says how to look the return up
   * later, as Salt's does.
   */
  noReturn(id: string, reason: string, jid?: string): void {
    this.#failed = true;
    const text =
      reason === 'No response' && jid
        ? `Minion did not return. [No response]\n${LOOKUP_HINT}\n\nsalt-run jobs.lookup_jid ${jid}`
        : `Minion did not return. [${reason}]`;
    this.#full[id] = { ret: text, retcode: 1 };
    // Salt's batch gives a minion that never answered its job an empty return
    if (this.#o.static) this.#collected[id] = {};
    else if (!this.#o.hideTimeout) this.#render({ [id]: text }, 'nested');
  }

  /**
   * Prints the `--summary`, and Salt's `ERROR: Minions returned with non-zero exit code` on
   * stderr when one failed or did not return; returns the exit code. `--static`: see
   * {@link finishStatic}.
   */
  async finish(): Promise<number> {
    if (this.#o.static) return this.#finishStatic();
    if (this.#o.summary) {
      const { renderReturnsSummary } = await import('../../outputters/returns-summary.js');
      this.write(renderReturnsSummary(this.#full, { verbose: this.#o.verbose }));
    }
    // a batch exits with the highest retcode and no such line, as Salt's
    if (this.#batch && !this.#o.static) return this.#maxRetcode;
    if (this.#failed && !this.#o.static)
      process.stderr.write('ERROR: Minions returned with non-zero exit code\n');
    if (this.#o.retcodePassthrough) return this.#maxRetcode;
    return this.#failed ? 1 : 0;
  }

  /**
   * `--static` (Salt's quiet batch): the collected returns at once, with no outputter of
   * theirs (highstate for a state function, else nested; `--out` wins over both), no summary;
   * exit 0 whatever the minions returned, 2 with `ERROR: No return received` when none did (a
   * minion that never answers the batch's ping is left out: `{}` with `--out json`, nothing nested).
   */
  async #finishStatic(): Promise<number> {
    const fun = this.#o.fun;
    const out = typeof fun === 'string' && fun.split('.')[0] === 'state' ? 'highstate' : 'nested';
    await this.prepare(out);
    this.#render(this.#collected, out);
    if (Object.keys(this.#collected).length > 0) return 0;
    // Salt's highstate outputter logs the empty answer at error level (its console log format)
    if (out === 'highstate' && !this.#o.outputter)
      process.stderr.write(
        '[ERROR   ] Data passed to highstate outputter is not a valid highstate return: {}\n',
      );
    process.stderr.write('ERROR: No return received\n');
    return 2;
  }
}
