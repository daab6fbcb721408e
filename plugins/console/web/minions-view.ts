/**
 * The minions: id, os and release, Salt version, presence and key state (minions-load.ts:
 * the light paged listing, the keys, `manage.present`); filtered by text (id) and by grain
 * (`grain:glob`, that grain fetched for every minion when the list lacks it); a minion's full
 * grains on click.
 */
import { html } from 'htm/preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { mayRunMinion } from './acl.js';
import type { Session } from './api.js';
import { useLoad } from './hooks.js';
import { LIST_GRAINS, listGrains, loadMinions, type MinionRow, minionGrains } from './minions-load.js';
import { nested } from './nested.js';
import { PillarView } from './pillar-view.js';
import { VirtualList } from './virtual-list.js';

export type { MinionRow } from './minions-load.js';

function globRe(glob: string): RegExp {
  const esc = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${esc}$`, 'i');
}

/** The top-level grain a `grain:glob` filter reads, when the list's rows lack it. */
export function filterGrain(text: string): string | undefined {
  const t = text.trim();
  const colon = t.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const top = t.slice(0, t.indexOf(':'));
  return (LIST_GRAINS as readonly string[]).includes(top) ? undefined : top;
}

/** Filters by id text, or `grain:glob` (`os:Debian`, `roles:web*`; nested grains with `:`). */
export function filterMinions(rows: readonly MinionRow[], text: string): readonly MinionRow[] {
  const t = text.trim();
  if (!t) return rows;
  const colon = t.lastIndexOf(':');
  if (colon > 0) {
    const path = t.slice(0, colon).split(':');
    const re = globRe(t.slice(colon + 1));
    return rows.filter((r) => {
      let v: unknown = r.grains;
      for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
      const vals = Array.isArray(v) ? v : [v];
      return vals.some((x) => x !== undefined && re.test(String(x)));
    });
  }
  const lower = t.toLowerCase();
  return rows.filter((r) => r.id.toLowerCase().includes(lower));
}

function Details(props: { session: Session; id: string }) {
  const [tab, setTab] = useState<'grains' | 'pillar'>('grains');
  const mayPillar = mayRunMinion(props.session.perms, 'pillar.items');
  const grains = useLoad(() => minionGrains(props.session, props.id), [props.session.token, props.id]);
  return html`<aside class="card grains" aria-label=${`Details of ${props.id}`}>
    <div class="toolbar" role="tablist">
      <strong>${props.id}</strong>
      <button type="button" role="tab" aria-selected=${tab === 'grains'} class=${tab === 'grains' ? '' : 'secondary'} onClick=${() => setTab('grains')}>Grains</button>
      ${
        mayPillar &&
        html`<button type="button" role="tab" aria-selected=${tab === 'pillar'} class=${tab === 'pillar' ? '' : 'secondary'} onClick=${() => setTab('pillar')}>
        Pillar
      </button>`
      }
    </div>
    ${
      tab === 'pillar' && mayPillar
        ? html`<${PillarView} session=${props.session} id=${props.id} key=${props.id} />`
        : grains.error
          ? html`<p class="error" role="alert">${grains.error}</p>`
          : grains.data
            ? html`<pre>${nested(grains.data, 0)}</pre>`
            : html`<p>Loading…</p>`
    }
  </aside>`;
}

export function MinionsView(props: { session: Session }) {
  const list = useLoad<MinionRow[]>(
    (progress) => loadMinions(props.session, progress),
    [props.session.token],
  );
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<string | undefined>(undefined);
  // one extra grain of every minion, fetched for a grain:glob filter on a grain the list lacks
  const [extra, setExtra] = useState<{ grain: string; values: Record<string, Record<string, unknown>> }>();
  const wanted = filterGrain(filter);
  useEffect(() => {
    if (!wanted || extra?.grain === wanted) return;
    let live = true;
    listGrains(props.session, [wanted]).then(
      (values) => live && setExtra({ grain: wanted, values }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted]);
  const rows = useMemo(() => {
    let all = list.data ?? [];
    if (wanted && extra?.grain === wanted)
      all = all.map((r) => ({ ...r, grains: { ...r.grains, ...extra.values[r.id] } }));
    else if (wanted) return [];
    return filterMinions(all, filter);
  }, [list.data, filter, extra]);
  return html`<main>
    <h2>Minions</h2>
    <div class="toolbar">
      <input
        name="filter"
        type="search"
        placeholder="filter: id text, or grain:glob (os:Debian)"
        value=${filter}
        onInput=${(e: Event) => setFilter((e.target as HTMLInputElement).value)}
        aria-label="Filter minions"
      />
      <span>${rows.length} of ${list.data?.length ?? 0}</span>
      <button type="button" class="secondary" onClick=${list.reload}>Refresh</button>
    </div>
    ${list.error && html`<p class="error" role="alert">${list.error}</p>`}
    ${list.loading && !list.data && html`<p>Loading…</p>`}
    <div class="split">
      <div class="grow">
        <div class="minion-row head" aria-hidden="true">
          <span>id</span><span>os</span><span>salt</span><span>up</span><span>key</span>
        </div>
        <${VirtualList}
          items=${rows}
          rowHeight=${30}
          height=${Math.max(200, Math.min(600, rows.length * 30))}
          label="Minions"
          row=${(r: MinionRow) => html`<button
            type="button"
            role="listitem"
            class=${`minion-row${r.id === open ? ' selected' : ''}`}
            data-minion=${r.id}
            key=${r.id}
            onClick=${() => setOpen(r.id === open ? undefined : r.id)}
          >
            <span class="mid">${r.id}</span><span>${r.os}</span><span>${r.saltversion}</span>
            <span class=${r.up === undefined ? '' : r.up ? 'up' : 'down'}>${r.up === undefined ? '?' : r.up ? 'up' : 'down'}</span>
            <span>${r.key}</span>
          </button>`}
        />
      </div>
      ${open && html`<${Details} session=${props.session} id=${open} key=${open} />`}
    </div>
  </main>`;
}
