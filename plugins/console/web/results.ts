/** One run's or job's results, each minion with its end state and its return (nested or JSON). */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { nested } from './nested.js';
import { type MinionResult, STATE_LABEL, tally } from './run-state.js';

export type OutputFormat = 'nested' | 'json';

function body(r: MinionResult, format: OutputFormat): string {
  if (r.state === 'waiting') return '';
  if (r.state === 'no_return') return 'Minion did not return. [No response]';
  if (r.state === 'not_connected') return 'Minion did not return. [Not connected]';
  return format === 'json' ? JSON.stringify(r.ret, null, 2) : nested(r.ret);
}

export function Results(props: { results: readonly MinionResult[] }) {
  const [format, setFormat] = useState<OutputFormat>('nested');
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
          <option value="nested">nested</option>
          <option value="json">JSON</option>
        </select></label
      >
    </div>
    ${sorted.map(
      (
        r,
      ) => html`<article class=${`minion-result state-${r.state}`} data-minion=${r.id} data-state=${r.state}>
        <header>
          <strong>${r.id}</strong>
          <span class="badge">${STATE_LABEL[r.state]}${r.state === 'failed' ? ` (retcode ${r.retcode})` : ''}</span>
        </header>
        ${r.state !== 'waiting' && html`<pre>${body(r, format)}</pre>`}
      </article>`,
    )}
  </section>`;
}
