/**
 * Schedules: the minions' scheduled jobs (`schedule.list return_yaml=False` on a target), one
 * row per minion and job with its function and when it runs; enable or disable a job
 * (`schedule.enable_job` / `schedule.disable_job`) and run it now (`schedule.run_job`) on that
 * minion. Salt has no runner that lists the master's own `schedule:`, so neither does this page.
 */
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { mayRunMinion } from './acl.js';
import { lowstate, type Session } from './api.js';
import { TargetFields } from './target-fields.js';

export interface ScheduleRow {
  readonly minion: string;
  readonly name: string;
  readonly fun: string;
  readonly when: string;
  readonly enabled: boolean;
}

/** When a job runs, in the words of its own keys (`every 60 s`, `cron 0 * * * *`, ...). */
export function whenOf(job: Readonly<Record<string, unknown>>): string {
  const every: string[] = [];
  for (const unit of ['seconds', 'minutes', 'hours', 'days'] as const)
    if (job[unit] !== undefined) every.push(`${String(job[unit])} ${unit}`);
  if (every.length) return `every ${every.join(' ')}`;
  if (job.cron !== undefined) return `cron ${String(job.cron)}`;
  if (job.when !== undefined)
    return `when ${Array.isArray(job.when) ? job.when.join(', ') : String(job.when)}`;
  if (job.once !== undefined) return `once ${String(job.once)}`;
  return '';
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The rows of a `schedule.list return_yaml=False` answer (per minion), by minion then job. */
export function scheduleRows(answer: unknown): ScheduleRow[] {
  const rows: ScheduleRow[] = [];
  if (!isMap(answer)) return rows;
  for (const [minion, jobs] of Object.entries(answer)) {
    if (!isMap(jobs)) continue;
    // `enabled: False` at the top: the minion's whole scheduler is off
    const allOff = jobs.enabled === false;
    for (const [name, job] of Object.entries(jobs)) {
      if (!isMap(job)) continue;
      rows.push({
        minion,
        name,
        fun: String(job.function ?? ''),
        when: whenOf(job),
        enabled: !allOff && job.enabled !== false,
      });
    }
  }
  return rows.sort((a, b) => (a.minion + a.name < b.minion + b.name ? -1 : 1));
}

export function SchedulesView(props: { session: Session }) {
  const s = props.session;
  const [target, setTarget] = useState('*');
  const [tgtType, setTgtType] = useState('glob');
  const [rows, setRows] = useState<ScheduleRow[] | undefined>(undefined);
  const [note, setNote] = useState<{ text: string; error: boolean } | undefined>(undefined);
  const call = (tgt: string, tgtType: string, fun: string, arg: unknown[]) =>
    lowstate(s.token, { client: 'local', tgt, tgt_type: tgtType, fun, arg, timeout: 30 });

  const load = async (e?: Event) => {
    e?.preventDefault();
    try {
      setRows(
        scheduleRows(await call(target, tgtType, 'schedule.list', [{ __kwarg__: true, return_yaml: false }])),
      );
    } catch (err) {
      setNote({ text: err instanceof Error ? err.message : String(err), error: true });
    }
  };

  const act = async (r: ScheduleRow, fun: string) => {
    setNote({ text: `${fun} ${r.name} on ${r.minion}…`, error: false });
    try {
      const ret = ((await call(r.minion, 'list', fun, [r.name])) as Record<string, unknown> | undefined)?.[
        r.minion
      ];
      const comment = isMap(ret) ? String(ret.comment ?? '') : String(ret ?? 'no return');
      const ok = isMap(ret) ? ret.result !== false : ret !== undefined;
      setNote({ text: `${r.minion}: ${comment}`, error: !ok });
      await load();
    } catch (err) {
      setNote({ text: err instanceof Error ? err.message : String(err), error: true });
    }
  };

  const may = (fun: string) => mayRunMinion(s.perms, fun);
  return html`<main>
    <h2>Schedules</h2>
    <form class="card" onSubmit=${load} aria-label="List schedules">
      <${TargetFields} target=${target} tgtType=${tgtType} onTarget=${setTarget} onTgtType=${setTgtType} />
      <button type="submit">List</button>
    </form>
    ${note && html`<p class=${note.error ? 'error' : 'note'} role=${note.error ? 'alert' : 'status'} data-testid="schedule-note">${note.text}</p>`}
    ${rows?.length === 0 && html`<p>No scheduled jobs on the target.</p>`}
    ${
      rows &&
      rows.length > 0 &&
      html`<table class="jobs schedules">
        <thead>
          <tr><th>minion</th><th>job</th><th>function</th><th>when</th><th>enabled</th><th></th></tr>
        </thead>
        <tbody>
          ${rows.map(
            (
              r,
            ) => html`<tr key=${`${r.minion}/${r.name}`} data-minion=${r.minion} data-job=${r.name} data-enabled=${String(r.enabled)}>
              <td>${r.minion}</td>
              <td>${r.name}</td>
              <td>${r.fun}</td>
              <td>${r.when}</td>
              <td class=${r.enabled ? 'up' : 'down'}>${r.enabled ? 'yes' : 'no'}</td>
              <td class="actions">
                ${
                  r.enabled
                    ? may('schedule.disable_job') &&
                      html`<button type="button" class="secondary" data-action="disable" onClick=${() => act(r, 'schedule.disable_job')}>Disable</button>`
                    : may('schedule.enable_job') &&
                      html`<button type="button" class="secondary" data-action="enable" onClick=${() => act(r, 'schedule.enable_job')}>Enable</button>`
                }
                ${
                  may('schedule.run_job') &&
                  html`<button type="button" data-action="run" onClick=${() => act(r, 'schedule.run_job')}>Run now</button>`
                }
              </td>
            </tr>`,
          )}
        </tbody>
      </table>`
    }
  </main>`;
}
