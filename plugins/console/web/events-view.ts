/** A live tail of the master's events: filter by tag (text or glob), pause and resume, clear. */
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { openStream, RECENT_KEPT, type ReceivedEvent, recentEvents, subscribe } from './stream.js';

type Shown = ReceivedEvent;

function tagMatcher(filter: string): (tag: string) => boolean {
  const f = filter.trim();
  if (!f) return () => true;
  if (/[*?]/.test(f)) {
    const re = new RegExp(
      `^${f
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    );
    return (tag) => re.test(tag);
  }
  return (tag) => tag.includes(f);
}

export function EventsView() {
  // newest first, starting with what arrived while another page was open
  const [events, setEvents] = useState<readonly Shown[]>(() => [...recentEvents()].reverse());
  const [filter, setFilter] = useState('');
  const [paused, setPaused] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const held = useRef<Shown[]>([]);
  const [heldCount, setHeldCount] = useState(0);
  const pausedRef = useRef(false);
  pausedRef.current = paused;
  useEffect(() => {
    openStream().catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
    return subscribe((ev) => {
      if (pausedRef.current) setHeldCount(held.current.push(ev));
      else setEvents((old) => [ev, ...old].slice(0, RECENT_KEPT));
    });
  }, []);
  const resume = () => {
    const h = held.current.splice(0).reverse();
    setHeldCount(0);
    setEvents((old) => [...h, ...old].slice(0, RECENT_KEPT));
    setPaused(false);
  };
  const match = tagMatcher(filter);
  const shown = events.filter((e) => match(e.tag));
  return html`<main>
    <h2>Events</h2>
    <div class="toolbar">
      <input
        type="search"
        name="tag"
        placeholder="tag filter: text or glob (salt/job/*/ret/*)"
        value=${filter}
        onInput=${(e: Event) => setFilter((e.target as HTMLInputElement).value)}
        aria-label="Tag filter"
      />
      ${
        paused
          ? html`<button type="button" onClick=${resume}>Resume (${heldCount} held)</button>`
          : html`<button type="button" onClick=${() => setPaused(true)}>Pause</button>`
      }
      <button type="button" class="secondary" onClick=${() => setEvents([])}>Clear</button>
      <span>${shown.length} shown</span>
    </div>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    <ol class="events" aria-label="Events">
      ${shown.map(
        (e) => html`<li key=${e.n} data-tag=${e.tag}>
          <details>
            <summary><time>${e.at}</time> <code class="tag">${e.tag}</code></summary>
            <pre>${JSON.stringify(e.data, null, 2)}</pre>
          </details>
        </li>`,
      )}
    </ol>
  </main>`;
}
