/**
 * Salt's crontab model (`salt/modules/cron.py`): a user's crontab parsed into the lines Salt
 * does not manage (`pre`) and, below its "# Lines below here are managed by Salt, do not edit"
 * marker, environment lines, timed jobs and `@special` jobs, each job with its comment and
 * its "SALT_CRON_IDENTIFIER:" id; rendered back the same way. Pure functions: no I/O here.
 */

export const TAG = '# Lines below here are managed by Salt, do not edit\n';
export const SALT_CRON_IDENTIFIER = 'SALT_CRON_IDENTIFIER';
export const SALT_CRON_NO_IDENTIFIER = 'NO ID SET';

export interface CronJob {
  minute?: string;
  hour?: string;
  daymonth?: string;
  month?: string;
  dayweek?: string;
  spec?: string;
  cmd: string;
  identifier: string | null;
  comment: string | null;
  commented: boolean;
}

export interface CronEnv {
  name: string;
  value: string | null;
}

export interface CronTab {
  pre: string[];
  crons: CronJob[];
  special: CronJob[];
  env: CronEnv[];
}

/** Salt's `_cron_id`: the job's identifier, or 'NO ID SET'. */
export function cronId(cron: CronJob): string {
  return cron.identifier ? String(cron.identifier) : SALT_CRON_NO_IDENTIFIER;
}

/** Salt's `_cron_matched`: whether `cron` is the job for `cmd`/`identifier`. */
export function cronMatched(cron: CronJob, cmd: string | null, identifier?: string | null): boolean {
  let idMatched: boolean | null = null;
  let cid = cronId(cron);
  const eid = identifier ? String(identifier) : SALT_CRON_NO_IDENTIFIER;
  if (cron.cmd !== cmd && cid === SALT_CRON_NO_IDENTIFIER && eid === SALT_CRON_NO_IDENTIFIER)
    idMatched = false;
  else {
    if (cron.cmd === cmd && cid === SALT_CRON_NO_IDENTIFIER) cid = eid;
    idMatched = eid === cid;
  }
  return (idMatched === null && cmd === cron.cmd) || idMatched;
}

/** Salt's `_needs_change`: `new` differs and is set ('random' only replaces '*'). */
export function needsChange(old: unknown, nu: unknown): boolean {
  if (old === nu) return false;
  if (nu === 'random') return old === '*';
  return nu !== null && nu !== undefined;
}

/** Salt's `list_tab` over the text of a crontab. */
export function parseTab(data: string): CronTab {
  const ret: CronTab = { pre: [], crons: [], special: [], env: [] };
  let flag = false;
  let comment: string | null = null;
  let identifier: string | null = null;
  const all = data === '' ? [] : data.split(/\r?\n/);
  if (data.endsWith('\n')) all.pop();
  for (let line of all) {
    if (line === TAG.trimEnd()) {
      flag = true;
      continue;
    }
    if (!flag) {
      ret.pre.push(line);
      continue;
    }
    let commented = false;
    if (line.startsWith('#DISABLED#')) {
      line = line.slice(10);
      commented = true;
    }
    if (line.startsWith('@')) {
      const comps = line.split(/\s+/).filter(Boolean);
      if (comps.length < 2) continue;
      ret.special.push({ spec: comps[0]!, cmd: comps.slice(1).join(' '), identifier, comment, commented });
      identifier = null;
      comment = null;
    } else if (line.startsWith('#')) {
      let cl = line.replace(/^[# ]+/, '');
      if (cl.includes(SALT_CRON_IDENTIFIER)) {
        const parts = cl.split(SALT_CRON_IDENTIFIER);
        cl = parts[0]!.trimEnd();
        if (parts[1]!.length > 1) identifier = parts[1]!.slice(1);
      }
      comment = comment === null ? cl : `${comment}\n${cl}`;
    } else if (line.indexOf('=') > 0 && (!line.includes(' ') || line.indexOf('=') < line.indexOf(' '))) {
      const at = line.indexOf('=');
      ret.env.push({ name: line.slice(0, at), value: line.slice(at + 1) });
    } else if (line.split(' ').length > 5) {
      const c = line.split(' ');
      ret.crons.push({
        minute: c[0]!,
        hour: c[1]!,
        daymonth: c[2]!,
        month: c[3]!,
        dayweek: c[4]!,
        identifier,
        cmd: c.slice(5).join(' '),
        comment,
        commented,
      });
      identifier = null;
      comment = null;
    }
  }
  return ret;
}

function commentLine(cron: CronJob, rstrip: boolean): string | undefined {
  if (cron.comment === null && cron.identifier === null) return undefined;
  let c = '#';
  if (cron.comment) c += ` ${(rstrip ? cron.comment.trimEnd() : cron.comment).replace(/\n/g, '\n# ')}`;
  if (cron.identifier) c += ` ${SALT_CRON_IDENTIFIER}:${cron.identifier}`;
  return `${c}\n`;
}

/** Salt's `_render_tab`: the crontab's lines, each ending in a newline. */
export function renderTab(lst: CronTab): string[] {
  const ret = lst.pre.map((p) => `${p}\n`);
  if (ret.length === 0 || ret[ret.length - 1] !== TAG) ret.push(TAG);
  for (const e of lst.env)
    ret.push(e.value === null || e.value === '' ? `${e.name}=""\n` : `${e.name}=${e.value}\n`);
  const off = (c: CronJob) => (c.commented === true ? '#DISABLED#' : '');
  for (const c of lst.crons) {
    const cl = commentLine(c, false);
    if (cl) ret.push(cl);
    ret.push(`${off(c)}${c.minute} ${c.hour} ${c.daymonth} ${c.month} ${c.dayweek} ${c.cmd}\n`);
  }
  for (const c of lst.special) {
    const cl = commentLine(c, true);
    if (cl) ret.push(cl);
    ret.push(`${off(c)}${c.spec} ${c.cmd}\n`);
  }
  return ret;
}

function pick<T>(list: readonly T[]): T {
  return list[Math.floor(Math.random() * list.length)] as T;
}
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

/** Salt's `_get_cron_date_time`: 'random' and 'a:b' ranges resolved to one value. */
export function cronDateTime(kw: Record<'minute' | 'hour' | 'daymonth' | 'month' | 'dayweek', string>) {
  const max: Record<string, number[]> = {
    minute: range(0, 60),
    hour: range(0, 24),
    month: range(1, 13),
    dayweek: range(0, 7),
  };
  const ret: Record<string, string> = {};
  for (const p of ['minute', 'hour', 'month', 'dayweek'] as const) {
    const v = String(kw[p] ?? '1').toLowerCase();
    const parts = v.split(':');
    if (v === 'random') ret[p] = String(pick(max[p]!));
    else if (parts.length === 2) {
      const [s, e] = parts.sort().map(Number) as [number, number];
      ret[p] = String(s + Math.floor(Math.random() * (e - s + 1)));
    } else ret[p] = v;
  }
  const m = ret.month!;
  const dmax = '1 3 5 7 8 10 12'.split(' ').includes(m) ? 31 : '4 6 9 11'.split(' ').includes(m) ? 30 : 28;
  const dm = String(kw.daymonth ?? '1').toLowerCase();
  ret.daymonth = dm === 'random' ? String(pick(range(1, dmax + 1))) : dm;
  return ret as Record<'minute' | 'hour' | 'daymonth' | 'month' | 'dayweek', string>;
}

/** Salt's `_date_time_match`. */
export function dateTimeMatch(cron: CronJob, kw: Partial<Record<string, unknown>>): boolean {
  return (['minute', 'hour', 'daymonth', 'month', 'dayweek'] as const).every((x) => {
    const v = kw[x];
    if (v === undefined || v === null) return true;
    return cron[x] === String(v) || (String(v).toLowerCase() === 'random' && cron[x] !== '*');
  });
}
