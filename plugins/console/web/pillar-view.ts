/**
 * A minion's pillar (`pillar.items` on that one minion), obfuscated: each top-level key shows
 * its value only when revealed, one key at a time.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { lowstate, type Session } from './api.js';
import { useLoad } from './hooks.js';
import { nested } from './nested.js';

async function loadPillar(s: Session, id: string): Promise<Record<string, unknown>> {
  const r = (await lowstate(s.token, { client: 'local', tgt: id, tgt_type: 'list', fun: 'pillar.items' })) as
    | Record<string, unknown>
    | undefined;
  const p = r?.[id];
  if (p === undefined) throw new Error(`${id} did not return its pillar`);
  if (!p || typeof p !== 'object' || Array.isArray(p)) throw new Error(String(p));
  return p as Record<string, unknown>;
}

export function PillarView(props: { session: Session; id: string }) {
  const pillar = useLoad(() => loadPillar(props.session, props.id), [props.session.token, props.id]);
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  const toggle = (k: string) =>
    setShown((old) => {
      const next = new Set(old);
      if (!next.delete(k)) next.add(k);
      return next;
    });
  if (pillar.error) return html`<p class="error" role="alert">${pillar.error}</p>`;
  if (!pillar.data) return html`<p>Loading…</p>`;
  const keys = Object.keys(pillar.data).sort();
  if (keys.length === 0) return html`<p>No pillar data.</p>`;
  return html`<dl class="pillar">
    ${keys.map(
      (k) => html`<dt key=${k} data-pillar=${k}>
          ${k}
          <button type="button" class="secondary" onClick=${() => toggle(k)} aria-label=${`${shown.has(k) ? 'Hide' : 'Reveal'} ${k}`}>
            ${shown.has(k) ? 'Hide' : 'Reveal'}
          </button>
        </dt>
        <dd>${shown.has(k) ? html`<pre>${nested(pillar.data?.[k], 0)}</pre>` : html`<span class="masked">••••••••</span>`}</dd>`,
    )}
  </dl>`;
}
