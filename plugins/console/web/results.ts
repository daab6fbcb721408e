/** One run's or job's results, each minion with its end state and its return (nested or JSON). */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { Highstate, stateRows } from './highstate.js';
import { nested } from './nested.js';
import { type MinionResult, STATE_LABEL, tally } from './run-state.js';
import { toYaml } from './yaml-out.js';

export type OutputFormat = 'highstate' | 'nested' | 'json' | 'yaml';

function body(r: MinionResult, format: OutputFormat): string {
  if (r.state === 'waiting') return '';
  if (r.state === 'no_return') return 'Minion did not return. [No response]';
  if (r.state === 'not_connected') return 'Minion did not return. [Not connected]';
  if (format === 'json') return JSON.stringify(r.ret, null, 2);
  if (format === 'yaml') return toYaml(r.ret);
  return nested(r.ret);
}

function Body(props: { r: MinionResult; format: OutputFormat }) {
  const { r, format } = props;
  if (r.state === 'waiting') return null;
  const rows =
    format === 'highstate' && (r.state === 'returned' || r.state === 'failed') ? stateRows(r.ret) : undefined;
  return rows
    ? html`<${Highstate} rows=${rows} />`
    : html`<pre>${body(r, format === 'highstate' ? 'nested' : format)}</pre>`;
}

/** Results rendered at first (and added per "show more"): a 10,000-minion run stays quick. */
export const SHOWN = 200;

export function Results(props: { results: readonly MinionResult[] }) {
  // a state function's returns open in the highstate view
  const states = props.results.some((r) => stateRows(r.ret) !== undefined);
  const [chosen, setFormat] = useState<OutputFormat | undefined>(undefined);
  const [shown, setShown] = useState(SHOWN);
  const format = chosen ?? (states ? 'highstate' : 'nested');
  const t = tally(props.results);
  // failures first, then the rest by id
  const rank = (r: MinionResult) => (r.state === 'failed' ? 0 : r.state === 'returned' ? 2 : 1);
  const sorted = [...props.results].sort(
    (a, b) => rank(a) - rank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return html`<section class="results" aria-label="Results">
    <div class="toolbar">
      <span class="summary" data-testid="summary"
        >${t.returned} returned · ${t.failed} failed · ${t.no_return} did not return · ${t.not_connected} not
        connected${t.waiting ? ` · ${t.waiting} waiting` : ''}</span
      >
      <label
        >Output
        <select value=${format} onChange=${(e: Event) => setFormat((e.target as HTMLSelectElement).value as OutputFormat)}>
          ${states && html`<option value="highstate">highstate</option>`}
          <option value="nested">nested</option>
          <option value="json">JSON</option>
          <option value="yaml">YAML</option>
        </select></label
      >
    </div>
    ${sorted.slice(0, shown).map(
      (
        r,
      ) => html`<article class=${`minion-result state-${r.state}`} data-minion=${r.id} data-state=${r.state}>
        <header>
          <strong>${r.id}</strong>
          <span class="badge">${STATE_LABEL[r.state]}${r.state === 'failed' ? ` (retcode ${r.retcode})` : ''}</span>
        </header>
        <${Body} r=${r} format=${format} />
      </article>`,
    )}
    ${
      sorted.length > shown &&
      html`<button type="button" class="secondary" onClick=${() => setShown(shown + SHOWN)}>
        Show ${Math.min(SHOWN, sorted.length - shown)} more of ${sorted.length - shown}
      </button>`
    }
  </section>`;
}
