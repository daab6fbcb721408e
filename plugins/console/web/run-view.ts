/**
 * The run form (target, target type, function with its picker, arguments in Salt's CLI
 * syntax, timeout, batch size) and the run's live results: the job goes out as `local_async`,
 * each minion's return shows as its `salt/job/<jid>/ret/<id>` event arrives on the event
 * stream, and at the timeout the silent minions are settled (did not return / not connected,
 * from `manage.present`). With a batch size it goes out as `local_batch` (batch-track.ts).
 */
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { mayRunKind, mayRunMinion } from './acl.js';
import { get, lowstate, lowstateEntries, runner, type Session } from './api.js';
import { cliCommand, parseArguments } from './args.js';
import { batchSubJob, settleBatch } from './batch-track.js';
import { FunctionPicker } from './function-picker.js';
import { go } from './hooks.js';
import { Results } from './results.js';
import { type MinionResult, resultOf, settle } from './run-state.js';
import { type BusEvent, openStream, subscribe } from './stream.js';
import { TargetFields } from './target-fields.js';

interface RunState {
  readonly jid: string;
  readonly results: ReadonlyMap<string, MinionResult>;
  readonly done: boolean;
  readonly sent?: boolean;
  /** A batch run: its sub-jobs (each batch is a job of its own). */
  readonly batch?: readonly string[];
}

async function presentMinions(s: Session): Promise<Set<string> | undefined> {
  if (!mayRunKind(s.perms, 'runner', 'manage.present')) return undefined;
  try {
    const r = await runner(s.token, 'manage.present');
    return Array.isArray(r) ? new Set(r.map(String)) : undefined;
  } catch {
    return undefined;
  }
}

export function RunView(props: { session: Session; query: URLSearchParams }) {
  const s = props.session;
  const q = props.query;
  const [target, setTarget] = useState(q.get('target') ?? '*');
  const [tgtType, setTgtType] = useState(q.get('tgt_type') ?? 'glob');
  const [fun, setFun] = useState(q.get('function') ?? 'test.ping');
  const [argText, setArgText] = useState(q.get('arguments') ?? '');
  const [timeout, setTimeoutSecs] = useState(10);
  const [run, setRun] = useState<RunState | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [copied, setCopied] = useState(false);
  const [isAsync, setAsync] = useState(false);
  const [batch, setBatch] = useState(q.get('batch') ?? '');
  const stop = useRef<() => void>(() => undefined);
  useEffect(() => () => stop.current(), []);
  // the states page (and "run again") may ask for the run to start at once
  const autorun = q.get('autorun') === '1';
  useEffect(() => {
    if (autorun && mayRunMinion(s.perms, fun.trim())) void submit();
  }, []);

  const allowed = fun.trim() !== '' && mayRunMinion(s.perms, fun.trim());
  const submit = async (e?: Event) => {
    e?.preventDefault();
    stop.current();
    setError(undefined);
    setRun(undefined);
    let arg: unknown[];
    try {
      arg = parseArguments(argText);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      return;
    }
    // events may arrive before the jid does: keep them until it is known
    const early: BusEvent[] = [];
    let jid: string | undefined;
    let results = new Map<string, MinionResult>();
    let settled = false;
    const funName = fun.trim();
    const batchSize = batch.trim();
    const subJobs: string[] = [];
    const take = (ev: BusEvent) => {
      if (batchSize && !settled) {
        const sub = batchSubJob(ev.tag, ev.data, funName, s.user);
        if (sub) {
          subJobs.push(sub.jid);
          for (const id of sub.minions) if (!results.has(id)) results.set(id, { id, state: 'waiting' });
        }
        const r = /^salt\/job\/(\d+)\/ret\/(.+)$/.exec(ev.tag);
        if (r && subJobs.includes(r[1] as string))
          results.set(r[2] as string, resultOf(r[2] as string, ev.data));
        if ((sub || r) && !frame) frame = requestAnimationFrame(flush);
        return;
      }
      const m = /^salt\/job\/(\d+)\/ret\/(.+)$/.exec(ev.tag);
      if (!m) return;
      if (jid === undefined) {
        early.push(ev);
        return;
      }
      if (m[1] !== jid || settled) return;
      const id = m[2] as string;
      const was = results.get(id);
      results.set(id, resultOf(id, ev.data));
      if (was?.state === 'waiting') waiting--;
      // one render per frame however many returns arrive in it
      if (waiting === 0) {
        finish();
        flush();
      } else if (!frame) frame = requestAnimationFrame(flush);
    };
    let frame = 0;
    let waiting = 0;
    const flush = () => {
      frame = 0;
      if (batchSize) setRun({ jid: '', results: new Map(results), done: false, batch: [...subJobs] });
      else if (jid !== undefined) setRun({ jid, results: new Map(results), done: waiting === 0 });
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = subscribe(take);
    const finish = () => {
      settled = true;
      if (frame) cancelAnimationFrame(frame);
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
    stop.current = finish;
    try {
      await openStream();
      if (batchSize) {
        setRun({ jid: '', results, done: false, batch: [] });
        const answer = await lowstateEntries(s.token, {
          client: 'local_batch',
          tgt: target,
          tgt_type: tgtType,
          fun: funName,
          arg,
          batch: batchSize,
          timeout,
        });
        finish();
        results = settleBatch(results, answer);
        setRun({ jid: '', results, done: true, batch: [...subJobs] });
        return;
      }
      const r = (await lowstate(s.token, {
        client: 'local_async',
        tgt: target,
        tgt_type: tgtType,
        fun: fun.trim(),
        arg,
      })) as { jid?: string; minions?: string[] } | undefined;
      if (!r?.jid) {
        finish();
        setError('No minions matched the target. No command was sent, no jid was assigned.');
        return;
      }
      jid = r.jid;
      if (isAsync) {
        // async: the job is out; its returns are in the job view
        finish();
        setRun({ jid, results, done: true, sent: true });
        return;
      }
      for (const id of r.minions ?? []) results.set(id, { id, state: 'waiting' });
      waiting = results.size;
      setRun({ jid, results: new Map(results), done: waiting === 0 });
      for (const ev of early.splice(0)) take(ev);
      if (settled) return;
      const runJid = jid;
      timer = setTimeout(async () => {
        if (settled) return;
        finish();
        // a return the stream missed is in the job cache
        try {
          const job = (await get(s.token, `/jobs/${runJid}`)) as {
            info: [{ Result: Record<string, Record<string, unknown>> }];
          };
          for (const [id, data] of Object.entries(job.info[0].Result ?? {}))
            if (results.get(id)?.state === 'waiting') results.set(id, resultOf(id, data));
        } catch {
          // no jobs permission: the stream's returns are all there is
        }
        results = settle(results, await presentMinions(s));
        setRun({ jid: runJid, results, done: true });
      }, timeout * 1000);
    } catch (err) {
      finish();
      if (batchSize) setRun(undefined);
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  const copy = async () => {
    await navigator.clipboard
      ?.writeText(cliCommand(target, tgtType, fun, argText, { batch, async: isAsync }))
      .catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  return html`<main>
    <h2>Run</h2>
    <form class="card run-form" onSubmit=${submit} aria-label="Run a function">
      <${TargetFields} target=${target} tgtType=${tgtType} onTarget=${setTarget} onTgtType=${setTgtType} />
      <div class="row">
        <label
          >Function
          <input name="function" value=${fun} list="functions" onInput=${(e: Event) => setFun((e.target as HTMLInputElement).value)} required
        /></label>
        <label class="grow"
          >Arguments
          <input name="arguments" value=${argText} placeholder="a 1 k=v" onInput=${(e: Event) => setArgText((e.target as HTMLInputElement).value)}
        /></label>
        <label
          >Timeout (s)
          <input name="timeout" type="number" min="1" max="3600" value=${timeout} onInput=${(e: Event) => setTimeoutSecs(Number((e.target as HTMLInputElement).value) || 10)}
        /></label>
      </div>
      <${FunctionPicker} session=${s} target=${target} tgtType=${tgtType} fun=${fun} />
      <div class="row">
        <label
          >Batch size
          <input name="batch" value=${batch} placeholder="all at once; 10 or 25%" size="10" onInput=${(e: Event) => setBatch((e.target as HTMLInputElement).value)}
        /></label>
      <label class="check"
        ><input type="checkbox" name="async" disabled=${batch.trim() !== ''} checked=${isAsync} onChange=${(e: Event) => setAsync((e.target as HTMLInputElement).checked)} />
        Async (send the job, do not wait for its returns)</label
      >
      </div>
      ${!allowed && fun.trim() !== '' && html`<p class="error" role="alert">Your eauth ACL does not allow ${fun.trim()}.</p>`}
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <div class="row">
        ${allowed && html`<button type="submit">Run</button>`}
        <button type="button" class="secondary" onClick=${copy}>${copied ? 'Copied' : 'Copy as CLI command'}</button>
        <code class="cli">${cliCommand(target, tgtType, fun, argText, { batch, async: isAsync })}</code>
      </div>
    </form>
    ${
      run?.batch &&
      html`<p data-testid="batch">
        Batch of ${batch.trim()}: ${run.batch.length} ${run.batch.length === 1 ? 'job' : 'jobs'}
        ${run.batch.map((j) => html` <a href=${`#/jobs/${j}`}>${j}</a>`)}
        ${run.done ? ' finished' : ' running…'}
      </p>
      <${Results} results=${[...run.results.values()]} />`
    }
    ${
      run &&
      !run.batch &&
      html`<p>
        Job <a href=${`#/jobs/${run.jid}`} onClick=${(e: Event) => {
          e.preventDefault();
          go(`jobs/${run.jid}`);
        }}>${run.jid}</a>
        ${run.sent ? ' sent (async)' : run.done ? ' finished' : ' running…'}
      </p>
      <${Results} results=${[...run.results.values()]} />`
    }
  </main>`;
}
