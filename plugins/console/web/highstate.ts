/**
 * The highstate view of a state run's return (`state.apply`, `state.highstate`, `state.sls`,
 * ...): one row per state with its result, comment and changes, failed states first, then
 * in run order; Salt's summary line of succeeded, failed and changed states.
 */
import { html } from 'htm/preact';

export interface StateRow {
  readonly key: string;
  readonly id: string;
  readonly fun: string;
  readonly result: boolean | null;
  readonly comment: string;
  readonly changes: Readonly<Record<string, unknown>>;
  readonly order: number;
}

/** The rows of a state return, or undefined when `ret` is not one (a map of `mod_|-id_|-name_|-fun` keys). */
export function stateRows(ret: unknown): StateRow[] | undefined {
  if (!ret || typeof ret !== 'object' || Array.isArray(ret)) return undefined;
  const entries = Object.entries(ret as Record<string, unknown>);
  if (entries.length === 0 || !entries.every(([k]) => k.split('_|-').length === 4)) return undefined;
  const rows = entries.map(([key, v], i): StateRow => {
    const r = (v ?? {}) as Record<string, unknown>;
    const [mod, id, , fun] = key.split('_|-') as [string, string, string, string];
    const changes = r.changes && typeof r.changes === 'object' ? (r.changes as Record<string, unknown>) : {};
    return {
      key,
      id: String(r.__id__ ?? id),
      fun: `${mod}.${fun}`,
      result: r.result === true ? true : r.result === false ? false : null,
      comment: Array.isArray(r.comment) ? r.comment.join('\n') : String(r.comment ?? ''),
      changes,
      order: typeof r.__run_num__ === 'number' ? r.__run_num__ : i,
    };
  });
  const rank = (r: StateRow) => (r.result === false ? 0 : 1);
  return rows.sort((a, b) => rank(a) - rank(b) || a.order - b.order);
}

function changesText(changes: Readonly<Record<string, unknown>>): string {
  const diff = changes.diff;
  if (typeof diff === 'string') return diff;
  return Object.keys(changes).length ? JSON.stringify(changes, null, 2) : '';
}

export function Highstate(props: { rows: readonly StateRow[] }) {
  const ok = props.rows.filter((r) => r.result !== false).length;
  const failed = props.rows.length - ok;
  const changed = props.rows.filter((r) => Object.keys(r.changes).length > 0).length;
  return html`<div class="highstate">
    <p class="summary">Succeeded: ${ok}${changed ? ` (changed=${changed})` : ''} · Failed: ${failed} · Total states run: ${props.rows.length}</p>
    <table>
      <thead><tr><th>result</th><th>state</th><th>function</th><th>comment</th><th>changes</th></tr></thead>
      <tbody>
        ${props.rows.map(
          (
            r,
          ) => html`<tr key=${r.key} class=${r.result === false ? 'failed' : r.result === null ? 'pending' : 'ok'}>
            <td>${r.result === true ? 'ok' : r.result === false ? 'failed' : 'test'}</td>
            <td>${r.id}</td>
            <td>${r.fun}</td>
            <td>${r.comment}</td>
            <td>${changesText(r.changes) && html`<pre>${changesText(r.changes)}</pre>`}</td>
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
