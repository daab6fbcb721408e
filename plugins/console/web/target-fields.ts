/** The target and target-type fields the run and states forms share. */
import { html } from 'htm/preact';

/** Every target type of the `salt` CLI, as the `tgt_type` it sends. */
export const TARGET_TYPES = [
  'glob',
  'pcre',
  'list',
  'grain',
  'grain_pcre',
  'pillar',
  'pillar_pcre',
  'nodegroup',
  'range',
  'compound',
  'ipcidr',
] as const;

export function TargetFields(props: {
  target: string;
  tgtType: string;
  onTarget: (v: string) => void;
  onTgtType: (v: string) => void;
}) {
  return html`<div class="row">
    <label class="grow"
      >Target
      <input name="target" value=${props.target} onInput=${(e: Event) => props.onTarget((e.target as HTMLInputElement).value)} required
    /></label>
    <label
      >Target type
      <select name="tgt_type" value=${props.tgtType} onChange=${(e: Event) => props.onTgtType((e.target as HTMLSelectElement).value)}>
        ${TARGET_TYPES.map((t) => html`<option value=${t}>${t}</option>`)}
      </select>
    </label>
  </div>`;
}
