/** Runners the console offers (`manage.*`, `jobs.*`), with arguments in the CLI syntax; the answer in the nested outputter or JSON. */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { mayRunKind } from './acl.js';
import { runner, type Session } from './api.js';
import { parseArguments } from './args.js';
import { nested } from './nested.js';

export const RUNNERS = [
  'manage.status',
  'manage.up',
  'manage.down',
  'manage.present',
  'manage.not_present',
  'manage.versions',
  'jobs.active',
  'jobs.list_jobs',
  'jobs.lookup_jid',
  'jobs.print_job',
] as const;

/** Positionals as `arg`, the `__kwarg__` map's keys as keywords (the runner client's lowstate). */
export function runnerChunk(argText: string): Record<string, unknown> {
  const args = parseArguments(argText);
  const last = args[args.length - 1];
  if (
    last &&
    typeof last === 'object' &&
    !Array.isArray(last) &&
    (last as Record<string, unknown>).__kwarg__ === true
  ) {
    const { __kwarg__: _, ...kwargs } = last as Record<string, unknown>;
    return { arg: args.slice(0, -1), ...kwargs };
  }
  return { arg: args };
}

export function RunnersView(props: { session: Session }) {
  const s = props.session;
  const offered = RUNNERS.filter((f) => mayRunKind(s.perms, 'runner', f));
  const [fun, setFun] = useState<string>(offered[0] ?? '');
  const [argText, setArgText] = useState('');
  const [out, setOut] = useState<{ text: string; error: boolean } | undefined>(undefined);
  const [json, setJson] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setOut({ text: '…', error: false });
    try {
      const ret = await runner(s.token, fun, runnerChunk(argText));
      setOut({ text: json ? JSON.stringify(ret, null, 2) : nested(ret, 0), error: false });
    } catch (err) {
      setOut({ text: err instanceof Error ? err.message : String(err), error: true });
    }
  };
  if (offered.length === 0)
    return html`<main><h2>Runners</h2><p>Your eauth ACL allows none of these runners.</p></main>`;
  return html`<main>
    <h2>Runners</h2>
    <form class="card" onSubmit=${submit} aria-label="Run a runner">
      <div class="row">
        <label
          >Runner
          <select name="runner" value=${fun} onChange=${(e: Event) => setFun((e.target as HTMLSelectElement).value)}>
            ${offered.map((f) => html`<option value=${f}>${f}</option>`)}
          </select>
        </label>
        <label class="grow"
          >Arguments <input name="arguments" value=${argText} onInput=${(e: Event) => setArgText((e.target as HTMLInputElement).value)}
        /></label>
        <label class="check"><input type="checkbox" checked=${json} onChange=${(e: Event) => setJson((e.target as HTMLInputElement).checked)} /> JSON</label>
        <button type="submit">Run</button>
      </div>
    </form>
    ${out && html`<pre class=${out.error ? 'error' : ''} data-testid="runner-output">${out.text}</pre>`}
  </main>`;
}
