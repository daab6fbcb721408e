/**
 * The jobs: recent jobs (`GET /jobs`, newest first) with function, target, user and time,
 * searched by function, target, user and date (job-search.ts); a job's detail (`GET /jobs/<jid>`) with every targeted minion's
 * return and end state, and "run again".
 */
import { html } from 'htm/preact';
import { useMemo, useState } from 'preact/hooks';
import { get, type Session } from './api.js';
import { go, useLoad } from './hooks.js';
import { type JobSearch, jobMatches, NO_SEARCH } from './job-search.js';
import { Results } from './results.js';
import { type MinionResult, resultOf } from './run-state.js';

interface JobRow {
  readonly jid: string;
  readonly fun: string;
  readonly args: readonly unknown[];
  readonly target: string;
  readonly tgtType: string;
  readonly user: string;
  readonly time: string;
}

function argWords(args: readonly unknown[]): string {
  return args
    .flatMap((a) => {
      if (
        a &&
        typeof a === 'object' &&
        !Array.isArray(a) &&
        (a as Record<string, unknown>).__kwarg__ === true
      )
        return Object.entries(a as Record<string, unknown>)
          .filter(([k]) => k !== '__kwarg__')
          .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
      return [typeof a === 'string' ? a : JSON.stringify(a)];
    })
    .map((w) => (/[\s"'\\]/.test(w) || w === '' ? `"${w.replace(/["\\]/g, '\\$&')}"` : w))
    .join(' ');
}

async function loadJobs(s: Session): Promise<JobRow[]> {
  const body = (await get(s.token, '/jobs')) as { return: [Record<string, Record<string, unknown>>] };
  return Object.entries(body.return[0])
    .map(([jid, j]) => ({
      jid,
      fun: Array.isArray(j.Function) ? j.Function.join(',') : String(j.Function),
      args: Array.isArray(j.Arguments) ? j.Arguments : [],
      target: Array.isArray(j.Target) ? j.Target.join(',') : String(j.Target),
      tgtType: String(j['Target-type'] ?? 'glob'),
      user: String(j.User ?? ''),
      time: String(j.StartTime ?? ''),
    }))
    .sort((a, b) => (a.jid < b.jid ? 1 : a.jid > b.jid ? -1 : 0));
}

function runAgain(j: { fun: string; target: string; tgtType: string; args: readonly unknown[] }): void {
  const q = new URLSearchParams({
    target: j.target,
    tgt_type: j.tgtType,
    function: j.fun,
    arguments: argWords(j.args),
  });
  go(`run?${q}`);
}

const SEARCH_FIELDS: readonly [keyof JobSearch, string, string][] = [
  ['fun', 'Function', 'text'],
  ['target', 'Target', 'text'],
  ['user', 'User', 'text'],
  ['from', 'From', 'date'],
  ['to', 'To', 'date'],
];

export function JobsView(props: { session: Session }) {
  const jobs = useLoad(() => loadJobs(props.session), [props.session.token]);
  const [search, setSearch] = useState<JobSearch>(NO_SEARCH);
  const hits = useMemo(() => (jobs.data ?? []).filter((j) => jobMatches(j, search)), [jobs.data, search]);
  return html`<main>
    <h2>Jobs</h2>
    <form class="toolbar" role="search" aria-label="Search jobs" onSubmit=${(e: Event) => e.preventDefault()}>
      ${SEARCH_FIELDS.map(
        ([field, label, type]) => html`<label
          >${label}
          <input
            type=${type}
            name=${`search-${field}`}
            placeholder=${type === 'text' ? 'text or glob' : undefined}
            value=${search[field]}
            onInput=${(e: Event) => setSearch({ ...search, [field]: (e.target as HTMLInputElement).value })}
        /></label>`,
      )}
      <span data-testid="jobs-count">${hits.length} of ${jobs.data?.length ?? 0}</span>
      <button type="button" class="secondary" onClick=${() => setSearch(NO_SEARCH)}>Clear</button>
      <button type="button" class="secondary" onClick=${jobs.reload}>Refresh</button>
    </form>
    ${jobs.error && html`<p class="error" role="alert">${jobs.error}</p>`}
    <table class="jobs">
      <thead>
        <tr><th>jid</th><th>function</th><th>target</th><th>user</th><th>time</th></tr>
      </thead>
      <tbody>
        ${hits.slice(0, 500).map(
          (j) => html`<tr key=${j.jid} data-jid=${j.jid}>
            <td><a href=${`#/jobs/${j.jid}`}>${j.jid}</a></td>
            <td>${j.fun} ${argWords(j.args)}</td>
            <td>${j.target}</td>
            <td>${j.user}</td>
            <td>${j.time}</td>
          </tr>`,
        )}
      </tbody>
    </table>
  </main>`;
}

interface JobDetail {
  readonly row: JobRow;
  readonly results: MinionResult[];
}

async function loadJob(s: Session, jid: string): Promise<JobDetail> {
  const body = (await get(s.token, `/jobs/${encodeURIComponent(jid)}`)) as {
    info: [
      Record<string, unknown> & { Result?: Record<string, Record<string, unknown>>; Minions?: string[] },
    ];
  };
  const info = body.info[0];
  const returned = info.Result ?? {};
  const ids = new Set([...(info.Minions ?? []), ...Object.keys(returned)]);
  const results = [...ids].sort().map((id): MinionResult => {
    const r = returned[id];
    return r ? resultOf(id, r) : { id, state: 'no_return' };
  });
  const row: JobRow = {
    jid,
    fun: String(info.Function),
    args: Array.isArray(info.Arguments) ? info.Arguments : [],
    target: Array.isArray(info.Target) ? info.Target.join(',') : String(info.Target),
    tgtType: String(info['Target-type'] ?? 'glob'),
    user: String(info.User ?? ''),
    time: String(info.StartTime ?? ''),
  };
  return { row, results };
}

export function JobView(props: { session: Session; jid: string }) {
  const job = useLoad(() => loadJob(props.session, props.jid), [props.session.token, props.jid]);
  const row = job.data?.row;
  return html`<main>
    <h2>Job ${props.jid}</h2>
    ${job.error && html`<p class="error" role="alert">${job.error}</p>`}
    ${
      row &&
      html`<dl class="card job-info">
        <dt>Function</dt><dd data-field="function">${row.fun} ${argWords(row.args)}</dd>
        <dt>Target</dt><dd>${row.target} (${row.tgtType})</dd>
        <dt>User</dt><dd>${row.user}</dd>
        <dt>Started</dt><dd>${row.time}</dd>
      </dl>
      <div class="toolbar">
        <button type="button" onClick=${() => runAgain(row)}>Run again</button>
        <button type="button" class="secondary" onClick=${job.reload}>Refresh</button>
      </div>
      <${Results} results=${job.data?.results ?? []} />`
    }
  </main>`;
}
