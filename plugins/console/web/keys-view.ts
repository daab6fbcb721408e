/**
 * The keys (wheel `key.list_all` and `key.finger`): pending, accepted, rejected and denied,
 * each with its fingerprint; accept, reject and delete after a confirmation, shown only when
 * the user's ACL allows the wheel function.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { mayRunKind } from './acl.js';
import { type Session, wheel } from './api.js';
import { useLoad } from './hooks.js';

type Action = 'accept' | 'reject' | 'delete';

const GROUPS: readonly { field: string; label: string; actions: readonly Action[] }[] = [
  { field: 'minions_pre', label: 'Pending', actions: ['accept', 'reject', 'delete'] },
  { field: 'minions', label: 'Accepted', actions: ['reject', 'delete'] },
  { field: 'minions_rejected', label: 'Rejected', actions: ['accept', 'delete'] },
  { field: 'minions_denied', label: 'Denied', actions: ['delete'] },
];

interface Keys {
  readonly lists: Record<string, string[]>;
  readonly fingers: Record<string, Record<string, string>>;
}

async function loadKeys(s: Session): Promise<Keys> {
  const lists = ((await wheel(s.token, 'key.list_all')) ?? {}) as Record<string, string[]>;
  const fingers = mayRunKind(s.perms, 'wheel', 'key.finger')
    ? (((await wheel(s.token, 'key.finger', { match: '*' }).catch(() => ({}))) ?? {}) as Record<
        string,
        Record<string, string>
      >)
    : {};
  return { lists, fingers };
}

function kwargsFor(action: Action, group: string, id: string): Record<string, unknown> {
  const kw: Record<string, unknown> = { match: id };
  if (action === 'accept' && group === 'minions_rejected') kw.include_rejected = true;
  if (action === 'reject' && group === 'minions') kw.include_accepted = true;
  return kw;
}

export function KeysView(props: { session: Session }) {
  const s = props.session;
  const keys = useLoad(() => loadKeys(s), [s.token]);
  const [confirm, setConfirm] = useState<{ action: Action; group: string; id: string } | undefined>(
    undefined,
  );
  const [error, setError] = useState<string | undefined>(undefined);
  const act = async () => {
    if (!confirm) return;
    setError(undefined);
    try {
      await wheel(s.token, `key.${confirm.action}`, kwargsFor(confirm.action, confirm.group, confirm.id));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
    setConfirm(undefined);
    keys.reload();
  };
  return html`<main>
    <h2>Keys</h2>
    <div class="toolbar"><button type="button" class="secondary" onClick=${keys.reload}>Refresh</button></div>
    ${(keys.error || error) && html`<p class="error" role="alert">${keys.error ?? error}</p>`}
    ${GROUPS.map(
      (g) => html`<section class="card" aria-label=${`${g.label} keys`} data-group=${g.field}>
        <h3>${g.label} (${keys.data?.lists[g.field]?.length ?? 0})</h3>
        <table class="keys">
          <tbody>
            ${(keys.data?.lists[g.field] ?? []).map(
              (id) => html`<tr key=${id} data-key=${id}>
                <td class="mid">${id}</td>
                <td class="finger"><code>${keys.data?.fingers[g.field]?.[id] ?? ''}</code></td>
                <td class="actions">
                  ${
                    confirm && confirm.id === id && confirm.group === g.field
                      ? html`<span class="confirm" role="alertdialog" aria-label="Confirm"
                        >${confirm.action} key ${id}?
                        <button type="button" class="danger" onClick=${act}>Confirm ${confirm.action}</button>
                        <button type="button" class="secondary" onClick=${() => setConfirm(undefined)}>Cancel</button></span
                      >`
                      : g.actions
                          .filter((a) => mayRunKind(s.perms, 'wheel', `key.${a}`))
                          .map(
                            (
                              a,
                            ) => html`<button type="button" class=${a === 'accept' ? '' : 'secondary'} data-action=${a}
                            onClick=${() => setConfirm({ action: a, group: g.field, id })}>${a}</button>`,
                          )
                  }
                </td>
              </tr>`,
            )}
          </tbody>
        </table>
      </section>`,
    )}
  </main>`;
}
