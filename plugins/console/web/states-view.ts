/**
 * States: apply (or test, `test=True`) the highstate or named SLS files on a target. The run
 * goes through the run page, whose results open in the highstate view.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { mayRunMinion } from './acl.js';
import type { Session } from './api.js';
import { go } from './hooks.js';
import { TargetFields } from './target-fields.js';

export function StatesView(props: { session: Session }) {
  const [target, setTarget] = useState('*');
  const [tgtType, setTgtType] = useState('glob');
  const [sls, setSls] = useState('');
  const [test, setTest] = useState(true);
  const allowed = mayRunMinion(props.session.perms, 'state.apply');
  const submit = (e: Event) => {
    e.preventDefault();
    const words = [
      ...(sls.trim()
        ? [
            sls
              .trim()
              .split(/[\s,]+/)
              .join(','),
          ]
        : []),
      ...(test ? ['test=True'] : []),
    ];
    const q = new URLSearchParams({
      target,
      tgt_type: tgtType,
      function: 'state.apply',
      arguments: words.join(' '),
      autorun: '1',
    });
    go(`run?${q}`);
  };
  return html`<main>
    <h2>States</h2>
    <form class="card" onSubmit=${submit} aria-label="Apply states">
      <${TargetFields} target=${target} tgtType=${tgtType} onTarget=${setTarget} onTgtType=${setTgtType} />
      <div class="row">
        <label class="grow"
          >SLS files (empty: the highstate)
          <input name="sls" value=${sls} placeholder="webserver, users" onInput=${(e: Event) => setSls((e.target as HTMLInputElement).value)}
        /></label>
        <label class="check"
          ><input type="checkbox" name="test" checked=${test} onChange=${(e: Event) => setTest((e.target as HTMLInputElement).checked)} /> Test
          only (test=True)</label
        >
      </div>
      ${
        allowed
          ? html`<button type="submit">${test ? 'Test' : 'Apply'}</button>`
          : html`<p class="error" role="alert">Your eauth ACL does not allow state.apply.</p>`
      }
    </form>
  </main>`;
}
