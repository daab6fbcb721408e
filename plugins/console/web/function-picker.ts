/**
 * The run form's function picker: every function the targeted minions offer
 * (`sys.list_functions` on the target, their union) as the function field's suggestions, and
 * for the chosen function its argument spec (`sys.argspec`) and help (`sys.doc`), asked of
 * one minion that has it.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { mayRunMinion } from './acl.js';
import { lowstate, type Session } from './api.js';

/**
 * Salt's `sys.argspec` entry of one function. Salt 3006 says `args: null` for a function
 * without named arguments and `varargs: true` / `kwargs: true` for `*args` / `**kwargs`
 * (tsalt: `[]` and the names); both read the same here.
 */
export interface ArgSpec {
  readonly args?: readonly string[] | null;
  readonly defaults?: readonly unknown[] | null;
  readonly varargs?: string | boolean | null;
  readonly kwargs?: string | boolean | null;
}

/** `fun(a, b=1, *args, **kwargs)`: the trailing `defaults` belong to the last arguments. */
export function formatArgspec(fun: string, spec: ArgSpec): string {
  const args = spec.args ?? [];
  const defaults = spec.defaults ?? [];
  const first = args.length - defaults.length;
  const words = args.map((a, i) =>
    i >= first ? `${a}=${JSON.stringify(defaults[i - first]) ?? 'None'}` : a,
  );
  if (spec.varargs) words.push(`*${spec.varargs === true ? 'args' : spec.varargs}`);
  if (spec.kwargs) words.push(`**${spec.kwargs === true ? 'kwargs' : spec.kwargs}`);
  return `${fun}(${words.join(', ')})`;
}

/** The functions the minions listed, each with one minion that has it; sorted. */
export function unionFunctions(answer: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!answer || typeof answer !== 'object') return out;
  for (const [id, funs] of Object.entries(answer as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  ))
    if (Array.isArray(funs)) for (const f of funs) if (typeof f === 'string' && !out.has(f)) out.set(f, id);
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

interface Help {
  readonly spec: string;
  readonly doc: string;
}

async function local(s: Session, tgt: string, tgtType: string, fun: string, arg: unknown[]) {
  return (await lowstate(s.token, { client: 'local', tgt, tgt_type: tgtType, fun, arg, timeout: 30 })) as
    | Record<string, unknown>
    | undefined;
}

/** The picker's buttons, the function field's `<datalist>`, and the chosen function's help. */
export function FunctionPicker(props: { session: Session; target: string; tgtType: string; fun: string }) {
  const s = props.session;
  const fun = props.fun.trim();
  const [funs, setFuns] = useState<{ of: string; list: Map<string, string> } | undefined>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);
  const [help, setHelp] = useState<Help | undefined>(undefined);

  const list = async () => {
    setNote('Asking the targeted minions…');
    try {
      const r = await local(s, props.target, props.tgtType, 'sys.list_functions', []);
      const all = unionFunctions(r);
      setFuns({ of: `${props.tgtType}:${props.target}`, list: all });
      setNote(`${all.size} functions on ${Object.keys(r ?? {}).length} minions`);
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    }
  };

  const explain = async () => {
    setHelp({ spec: fun, doc: '…' });
    // one minion that has it: from the list when there is one, else the target
    const owner = funs?.list.get(fun);
    const [tgt, tgtType] = owner ? [owner, 'list'] : [props.target, props.tgtType];
    try {
      const [specs, docs] = await Promise.all([
        mayRunMinion(s.perms, 'sys.argspec') ? local(s, tgt, tgtType, 'sys.argspec', [fun]) : undefined,
        local(s, tgt, tgtType, 'sys.doc', [fun]),
      ]);
      const firstMap = (r: Record<string, unknown> | undefined) =>
        Object.values(r ?? {}).find((v) => v && typeof v === 'object' && fun in v) as
          | Record<string, unknown>
          | undefined;
      const spec = firstMap(specs)?.[fun] as ArgSpec | undefined;
      const doc = firstMap(docs)?.[fun];
      setHelp({
        spec: spec ? formatArgspec(fun, spec) : fun,
        doc:
          typeof doc === 'string'
            ? doc
            : `No documentation for ${fun} (no minion of the target answered, or no such function).`,
      });
    } catch (err) {
      setHelp({ spec: fun, doc: err instanceof Error ? err.message : String(err) });
    }
  };

  const mayList = mayRunMinion(s.perms, 'sys.list_functions');
  const mayDoc = mayRunMinion(s.perms, 'sys.doc');
  return html`<div class="row picker">
      ${mayList && html`<button type="button" class="secondary" onClick=${list}>Functions</button>`}
      ${mayDoc && html`<button type="button" class="secondary" onClick=${explain}>Doc</button>`}
      ${note && html`<span class="note" data-testid="functions-note">${note}</span>`}
    </div>
    <datalist id="functions">${[...(funs?.list.keys() ?? [])].map((f) => html`<option value=${f}></option>`)}</datalist>
    ${
      help &&
      html`<section class="card doc-card" aria-label="Documentation">
        <code data-testid="argspec">${help.spec}</code>
        <pre class="doc">${help.doc}</pre>
      </section>`
    }`;
}
