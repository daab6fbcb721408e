/**
 * The minions: id, os and release, Salt version, presence and key state, from the grains
 * cache (`GET /minions`), the keys (`GET /keys`) and `manage.present`; filtered by text (id)
 * and by grain (`grain:glob`); a minion's grains on click.
 */
import { html } from 'htm/preact';
import { useMemo, useState } from 'preact/hooks';
import { mayRunKind, mayRunMinion } from './acl.js';
import { get, runner, type Session } from './api.js';
import { useLoad } from './hooks.js';
import { nested } from './nested.js';
import { PillarView } from './pillar-view.js';
import { VirtualList } from './virtual-list.js';

export interface MinionRow {
  readonly id: string;
  readonly os: string;
  readonly saltversion: string;
  readonly up: boolean | undefined;
  readonly key: string;
  readonly grains: Readonly<Record<string, unknown>>;
}

const KEY_STATES: readonly [string, string][] = [
  ['minions', 'accepted'],
  ['minions_pre', 'pending'],
  ['minions_rejected', 'rejected'],
  ['minions_denied', 'denied'],
];

async function loadMinions(s: Session): Promise<MinionRow[]> {
  // GET /minions needs grains.items: without it, say so rather than ask and be refused
  if (!mayRunMinion(s.perms, 'grains.items'))
    throw new Error(`Your eauth ACL does not allow grains.items, which the minions list reads.`);
  // the grains, the keys and presence, asked for at once
  const [grainsBody, keys, presentList] = await Promise.all([
    get(s.token, '/minions') as Promise<{ return: [Record<string, Record<string, unknown>>] }>,
    mayRunKind(s.perms, 'wheel', 'key.list_all')
      ? (get(s.token, '/keys').catch(() => ({ return: {} })) as Promise<{ return: Record<string, string[]> }>)
      : undefined,
    mayRunKind(s.perms, 'runner', 'manage.present')
      ? runner(s.token, 'manage.present').catch(() => undefined)
      : undefined,
  ]);
  const grains = grainsBody.return[0];
  const keyOf = new Map<string, string>();
  for (const [field, label] of KEY_STATES) for (const id of keys?.return[field] ?? []) keyOf.set(id, label);
  const present = Array.isArray(presentList) ? new Set(presentList.map(String)) : undefined;
  const ids = new Set([
    ...Object.keys(grains),
    ...[...keyOf].filter(([, k]) => k === 'accepted').map(([id]) => id),
  ]);
  return [...ids].sort().map((id) => {
    const g = grains[id] ?? {};
    return {
      id,
      os: [g.os, g.osrelease].filter((x) => x !== undefined).join(' '),
      saltversion: String(g.saltversion ?? ''),
      up: present ? present.has(id) : undefined,
      key: keyOf.get(id) ?? '',
      grains: g,
    };
  });
}

function globRe(glob: string): RegExp {
  const esc = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${esc}$`, 'i');
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

export function MinionsView(props: { session: Session }) {
  const list = useLoad(() => loadMinions(props.session), [props.session.token]);
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<string | undefined>(undefined);
  const [tab, setTab] = useState<'grains' | 'pillar'>('grains');
  const mayPillar = mayRunMinion(props.session.perms, 'pillar.items');
  const rows = useMemo(() => filterMinions(list.data ?? [], filter), [list.data, filter]);
  const chosen = list.data?.find((r) => r.id === open);
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
      ${
        chosen &&
        html`<aside class="card grains" aria-label=${`Details of ${chosen.id}`}>
        <div class="toolbar" role="tablist">
          <strong>${chosen.id}</strong>
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
            ? html`<${PillarView} session=${props.session} id=${chosen.id} key=${chosen.id} />`
            : html`<pre>${nested(chosen.grains, 0)}</pre>`
        }
      </aside>`
      }
    </div>
  </main>`;
}
