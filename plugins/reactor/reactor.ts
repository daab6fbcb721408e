/**
 * The reactor: for each event, the `reactor:` globs and TypeScript reactions that match its
 * tag; each matched file is rendered with `tag` and `data` in the template sandbox, each
 * reaction checked and handed to the executor. Every step that matters fires a trace event
 * under `salt/reactor/<id>/` (`match`, `render`, `start`, `error`) and errors are logged at
 * warning level; nothing an event carries can stop the reactor.
 */

import type { SaltError } from '../../kernel/index.js';
import { genJid, globMatch } from '../../kernel/util.js';
import { type NamedReaction, type ReactionDef, reactionGlobs } from './define.js';
import { SALT_ERR_REACTOR_DATA, SALT_ERR_REACTOR_RENDER } from './errors.js';
import { type FileOptions, loadTemplate, resolveReactionFiles } from './files.js';
import type { LoopGuard } from './loop-guard.js';
import { checkReaction, reactionsFromHigh } from './sls.js';
import { TemplateError } from './template/index.js';

/** What the executor reports for a started job. */
export interface StartedJob {
  jid: string;
  tag?: string;
  minions?: string[];
  missing?: string[];
  /** Wheel functions run at once: their result. */
  success?: boolean;
}

export interface Executor {
  run(reaction: NamedReaction): Promise<StartedJob>;
}

export interface ReactorLog {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface ReactorOptions {
  /** Salt's `reactor:` list of `{glob: file | [files]}`. */
  entries: ReadonlyArray<Readonly<Record<string, string | readonly string[]>>>;
  reactions?: readonly ReactionDef[];
  files: FileOptions;
  /** Fires a trace event; `undefined` fires nothing (the dry run collects instead). */
  fire?: (tag: string, data: Record<string, unknown>) => void;
  log: ReactorLog;
  guard: LoopGuard;
  /** Runs reactions; without one, the reactor only renders (`reactor.test`). */
  executor?: Executor;
}

export interface ReactorError {
  stage: 'data' | 'file' | 'render' | 'reaction' | 'execute' | 'loop';
  code: string;
  message: string;
  glob?: string;
  file?: string;
  line?: number;
  reaction?: string;
}

/** What one event led to. */
export interface ReactorOutcome {
  id: string;
  tag: string;
  globs: string[];
  reactions: NamedReaction[];
  started: Array<
    { reaction: string; source: string; kind: string; fun: string; elapsed_ms: number } & StartedJob
  >;
  errors: ReactorError[];
}

type Match = { glob: string; file: string } | { glob: string; def: ReactionDef };

const MAX_TRACE_ITEMS = 50;

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null || value === undefined) return 'empty (None)';
  return `a ${typeof value}`;
}

export class Reactor {
  readonly #o: ReactorOptions;

  constructor(o: ReactorOptions) {
    this.#o = o;
  }

  /** The matches for `tag`, in config order: reactor files first, then TypeScript reactions. */
  matches(tag: string): Match[] {
    const out: Match[] = [];
    for (const entry of this.#o.entries) {
      for (const [glob, files] of Object.entries(entry)) {
        if (!globMatch(glob, tag)) continue;
        for (const file of typeof files === 'string' ? [files] : files) out.push({ glob, file });
      }
    }
    for (const def of this.#o.reactions ?? []) {
      const glob = reactionGlobs(def).find((g) => globMatch(g, tag));
      if (glob !== undefined) out.push({ glob, def });
    }
    return out;
  }

  /** Handles one event; undefined when nothing matched or the loop guard skipped it. */
  async handle(tag: string, data: unknown): Promise<ReactorOutcome | undefined> {
    const skip = this.#o.guard.ignoreReason(tag, data);
    if (skip) {
      this.#o.log.debug({ tag, reason: skip }, 'reactor: not reacting to its own event');
      return undefined;
    }
    let matches = this.matches(tag);
    if (matches.length === 0) return undefined;
    const id = genJid();
    const began = performance.now();
    const out: ReactorOutcome = { id, tag, globs: [], reactions: [], started: [], errors: [] };
    const trace = (suffix: string, body: Record<string, unknown>): void => {
      this.#o.fire?.(`salt/reactor/${id}/${suffix}`, { tag, ...body });
    };
    const fail = (e: ReactorError): void => {
      out.errors.push(e);
      trace('error', { ...e });
      this.#o.log.warn({ reactor: id, tag, ...e }, `reactor: ${e.message}`);
    };
    // the circuit breaker: a glob matching a storm of events is paused
    matches = matches.filter((m) => {
      const gate = this.#o.guard.admit(m.glob);
      if (!gate.paused) return true;
      if (gate.tripped)
        fail({
          stage: 'loop',
          code: 'SALT_ERR_REACTOR_REACTION',
          glob: m.glob,
          message: `reactor glob '${m.glob}' matched too many events in one second (a loop?): paused until ${new Date(gate.until).toISOString()}`,
        });
      return false;
    });
    if (matches.length === 0) return out;
    out.globs = [...new Set(matches.map((m) => m.glob))];
    trace('match', {
      globs: out.globs,
      files: matches.flatMap((m) => ('file' in m ? [m.file] : [])),
      reactions: matches.flatMap((m) => ('def' in m ? [m.def.name] : [])),
    });
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      const err = new SALT_ERR_REACTOR_DATA(tag, describe(data));
      fail({ stage: 'data', code: err.code, message: err.message });
      return out;
    }
    const event = { tag, data: data as Record<string, unknown> };
    for (const m of matches) {
      const rendered =
        'file' in m
          ? await this.#renderFile(m.glob, m.file, event, fail)
          : await this.#runDef(m, event, fail);
      for (const { source, reactions } of rendered) {
        trace('render', { glob: m.glob, source, reactions: reactions.slice(0, MAX_TRACE_ITEMS) });
        out.reactions.push(...reactions);
      }
    }
    const executor = this.#o.executor;
    if (!executor) return out;
    for (const r of out.reactions) {
      try {
        const job = await executor.run(r);
        this.#o.guard.remember(job.jid);
        const started = {
          reaction: r.id,
          source: r.source,
          kind: r.kind,
          fun: r.fun,
          ...job,
          /** Milliseconds from the reactor receiving the event to the job's start. */
          elapsed_ms: Math.round((performance.now() - began) * 100) / 100,
        };
        out.started.push(started);
        trace('start', started);
        this.#o.log.info(
          { reactor: id, tag, reaction: r.id, jid: job.jid },
          `reactor: started ${r.kind} ${r.fun} (${job.jid})`,
        );
      } catch (err) {
        const e = err as { code?: string; message?: string };
        const code = e.code ?? 'SALT_ERR_REACTOR_REACTION';
        fail({
          stage: code === 'SALT_ERR_REACTOR_REACTION' ? 'reaction' : 'execute',
          code,
          message: e.message ?? String(err),
          file: r.source,
          reaction: r.id,
        });
      }
    }
    return out;
  }

  async #renderFile(
    glob: string,
    ref: string,
    event: { tag: string; data: Record<string, unknown> },
    fail: (e: ReactorError) => void,
  ): Promise<Array<{ source: string; reactions: NamedReaction[] }>> {
    let paths: string[];
    try {
      paths = await resolveReactionFiles(ref, this.#o.files);
    } catch (err) {
      const e = err as SaltError;
      fail({ stage: 'file', code: e.code, message: e.message, glob, file: ref });
      return [];
    }
    const out: Array<{ source: string; reactions: NamedReaction[] }> = [];
    for (const path of paths) {
      try {
        const template = await loadTemplate(path);
        let text: string;
        try {
          text = template.render({ tag: event.tag, data: event.data });
        } catch (err) {
          if (err instanceof TemplateError) throw new SALT_ERR_REACTOR_RENDER(path, err.line, err.message);
          throw err;
        }
        out.push({ source: path, reactions: reactionsFromHigh(await parseRendered(text, path), path) });
      } catch (err) {
        const e = err as SaltError & { details?: { line?: number } };
        const stage =
          e.code === 'SALT_ERR_REACTOR_FILE'
            ? 'file'
            : e.code === 'SALT_ERR_REACTOR_REACTION'
              ? 'reaction'
              : 'render';
        const line = /, line (\d+):/.exec(e.message ?? '')?.[1];
        fail({
          stage,
          code: e.code ?? 'SALT_ERR_REACTOR_RENDER',
          message: e.message ?? String(err),
          glob,
          file: path,
          ...(line ? { line: Number(line) } : {}),
        });
      }
    }
    return out;
  }

  async #runDef(
    m: { glob: string; def: ReactionDef },
    event: { tag: string; data: Record<string, unknown> },
    fail: (e: ReactorError) => void,
  ): Promise<Array<{ source: string; reactions: NamedReaction[] }>> {
    const source = `ts:${m.def.name}`;
    try {
      const result = await m.def.react(event, { glob: m.glob, log: this.#o.log });
      const list = result === undefined || result === null ? [] : Array.isArray(result) ? result : [result];
      return [{ source, reactions: list.map((r, i) => checkReaction(r, `${m.def.name}[${i}]`, source)) }];
    } catch (err) {
      const e = err as { code?: string; message?: string };
      fail({
        stage: 'reaction',
        code: e.code ?? 'SALT_ERR_REACTOR_REACTION',
        message: e.code ? (e.message ?? '') : `reaction ${m.def.name} threw: ${e.message ?? String(err)}`,
        glob: m.glob,
        file: source,
      });
      return [];
    }
  }
}

/** The rendered YAML as a mapping (empty text is no reactions); YAML errors keep their line. */
async function parseRendered(text: string, path: string): Promise<Record<string, unknown>> {
  const { parseSaltYaml } = await import('../../kernel/util.js');
  try {
    return await parseSaltYaml(text);
  } catch (err) {
    const e = err as { linePos?: Array<{ line: number }>; message?: string };
    const line = e.linePos?.[0]?.line ?? 0;
    const first = (e.message ?? String(err)).split('\n')[0] ?? '';
    throw new SALT_ERR_REACTOR_RENDER(
      path,
      line,
      `the rendered file is not valid YAML: ${first.replace('the config should be a mapping of options', 'the rendered file should be a mapping of reactions')}`,
    );
  }
}
