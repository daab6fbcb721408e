/**
 * Salt's `zabbix_mediatype` state module (`salt/states/zabbix_mediatype.py`): a Zabbix media
 * type present (created with its properties; an existing one's email, script, SMS, Jabber,
 * Ez Texting and status properties brought in line) or absent, through the `zabbix`
 * execution module.
 *
 * As Salt's: under test=True only a status change is reported as an update.
 */
import { pyStr, pyTruthy } from '../kernel/util.js';
import { pythonError } from '../modules/_py-exception.js';
import { pyEquals } from '../modules/_traverse.js';
import { field } from '../modules/_zabbix-api.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { pyInt } from './_py-int.js';
import { CONN_DOC, errorOf, hasError, zabbixCaller, zabbixConn, zabbixVirtual } from './_zabbix-state.js';

type Dict = Record<string, unknown>;

/** One of Salt's update checks: for a media type, with these keywords given, these fields compared. */
interface Check {
  readonly id: string;
  readonly type: number;
  readonly needs: readonly string[];
  /** Compared in order: `type` as ints against the `mediatype` argument, `int:k` as ints, else as given. */
  readonly compare: readonly string[];
  /** The keywords the update sends (after `type` when `sendsType`). */
  readonly sends: readonly string[];
  readonly sendsType: boolean;
  /** The keywords Salt records in the changes. */
  readonly changes: readonly string[];
}

const port = (id: string, key: string): Check => ({
  id,
  type: 0,
  needs: [key],
  compare: [`int:${key}`],
  sends: [key],
  sendsType: false,
  changes: [key],
});

const CHECKS: readonly Check[] = [
  {
    id: 'email',
    type: 0,
    needs: ['smtp_server', 'smtp_helo', 'smtp_email'],
    compare: ['type', 'smtp_server', 'smtp_email', 'smtp_helo'],
    sends: ['smtp_server', 'smtp_helo', 'smtp_email'],
    sendsType: true,
    changes: ['smtp_server', 'smtp_helo', 'smtp_email'],
  },
  port('email_port', 'smtp_port'),
  port('email_security', 'smtp_security'),
  port('email_verify_peer', 'smtp_verify_peer'),
  port('email_verify_host', 'smtp_verify_host'),
  {
    id: 'email_auth',
    type: 0,
    needs: ['smtp_authentication', 'username', 'passwd'],
    compare: ['int:smtp_authentication', 'username', 'passwd'],
    sends: ['username', 'passwd', 'smtp_authentication'],
    sendsType: false,
    changes: ['smtp_authentication', 'username'],
  },
  {
    id: 'script',
    type: 1,
    needs: ['exec_path'],
    compare: ['type', 'exec_path'],
    sends: ['exec_path'],
    sendsType: true,
    changes: ['exec_path'],
  },
  {
    id: 'script_params',
    type: 1,
    needs: ['exec_params'],
    compare: ['exec_params'],
    sends: ['exec_params'],
    sendsType: false,
    changes: ['exec_params'],
  },
  {
    id: 'sms',
    type: 2,
    needs: ['gsm_modem'],
    compare: ['type', 'gsm_modem'],
    sends: ['gsm_modem'],
    sendsType: true,
    changes: ['gsm_modem'],
  },
  {
    id: 'jabber',
    type: 3,
    needs: ['username', 'passwd'],
    compare: ['type', 'username', 'passwd'],
    sends: ['username', 'passwd'],
    sendsType: true,
    changes: ['username'],
  },
  {
    id: 'eztext',
    type: 100,
    needs: ['username', 'passwd', 'exec_path'],
    compare: ['type', 'username', 'passwd', 'exec_path'],
    sends: ['username', 'passwd', 'exec_path'],
    sendsType: true,
    changes: ['username', 'exec_path'],
  },
];

const STATUS: Check = {
  id: 'status',
  type: -1,
  needs: ['status'],
  compare: ['int:status'],
  sends: ['status'],
  sendsType: false,
  changes: ['status'],
};

/** Whether the media type differs from the keywords on one check (Python's short-circuit `or`). */
function differs(c: Check, mediatype: unknown, kw: Dict, obj: Dict): boolean {
  for (const key of c.compare) {
    if (key === 'type') {
      if (pyInt(mediatype) !== pyInt(field(obj, 'type'))) return true;
    } else if (key.startsWith('int:')) {
      const k = key.slice(4);
      if (pyInt(kw[k]) !== pyInt(field(obj, k))) return true;
    } else if (!pyEquals(kw[key], field(obj, key))) return true;
  }
  return false;
}

const present = defineState({
  args: (z) => z.object({ name: z.unknown(), mediatype: z.unknown() }),
  varkw: true,
  doc: `Creates new mediatype: mediatype, its type (0 email, 1 script, 2 SMS, 3 Jabber, 100 Ez Texting); any media type property as a keyword (smtp_server, smtp_helo, smtp_email, smtp_port, exec_path, exec_params (a list is joined by newlines), gsm_modem, username, passwd, status, ...).${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = pyStr(a.name);
    const kw: Dict = { ...extra.kwargs };
    const conn = zabbixConn(extra);
    const call = zabbixCaller(ctx, conn);
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    const updated = `Mediatype ${name} updated.`;
    const exists = `Mediatype ${name} already exists.`;
    if ('exec_params' in kw)
      kw.exec_params = Array.isArray(kw.exec_params)
        ? `${kw.exec_params.map((p) => pyStr(p)).join('\n')}\n`
        : `${pyStr(kw.exec_params)}\n`;
    const found = await call('mediatype_get', [a.name]);
    const todo: Check[] = [];
    let mediatypeid = 0;
    if (pyTruthy(found)) {
      const obj = (found as Dict[])[0] as Dict;
      mediatypeid = pyInt(field(obj, 'mediatypeid'));
      const type = pyInt(a.mediatype);
      for (const c of CHECKS)
        if (type === c.type && c.needs.every((k) => k in kw) && differs(c, a.mediatype, kw, obj))
          todo.push(c);
      if ('status' in kw && differs(STATUS, a.mediatype, kw, obj)) todo.push(STATUS);
    }
    if (ctx.test) {
      if (!pyTruthy(found)) return { ...ret, result: null, comment: `Mediatype ${name} created.` };
      if (todo.includes(STATUS)) return { ...ret, result: null, comment: updated };
      return { ...ret, result: true, comment: exists };
    }
    if (!pyTruthy(found)) {
      const created = await ctx.call('zabbix.mediatype_create', [a.name, a.mediatype], kw);
      if (!hasError(created))
        return {
          ...ret,
          result: true,
          comment: `Mediatype ${name} created.`,
          changes: {
            [name]: { old: `Mediatype ${name} does not exist.`, new: `Mediatype ${name} created.` },
          },
        };
      return { ...ret, comment: `Unable to create mediatype: ${name}. ${errorOf(created)}` };
    }
    if (todo.length === 0) return { ...ret, result: true, comment: exists };
    const errors: unknown[] = [];
    const changes: Dict = {};
    const answers = new Map<string, unknown>();
    for (const c of todo) {
      const send: Dict = c.sendsType ? { type: a.mediatype } : {};
      for (const k of c.sends) send[k] = kw[k];
      const res = await call('mediatype_update', [mediatypeid], send);
      answers.set(c.id, res);
      if (!hasError(res)) for (const k of c.changes) changes[k] = kw[k];
      else if (c.id !== 'script_params') errors.push((res as Dict).error);
      // Salt reads the script update's answer here, whether or not that update ran
      else if (answers.has('script')) errors.push(field(answers.get('script'), 'error'));
      else
        throw pythonError(
          'UnboundLocalError',
          "cannot access local variable 'updated_script' where it is not associated with a value",
        );
    }
    if (errors.length > 0) return { ...ret, result: false, comment: pyStr(errors) };
    return { ...ret, result: true, comment: updated, changes };
  },
});

const absent = defineState({
  args: (z) => z.object({ name: z.unknown() }),
  varkw: true,
  doc: `Ensures that the mediatype does not exist, eventually deletes the mediatype.${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = pyStr(a.name);
    const call = zabbixCaller(ctx, zabbixConn(extra));
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    const notThere = `Mediatype ${name} does not exist.`;
    const deleted = `Mediatype ${name} deleted.`;
    const found = await call('mediatype_get', [a.name]);
    if (ctx.test)
      return pyTruthy(found)
        ? { ...ret, result: null, comment: deleted }
        : { ...ret, result: true, comment: notThere };
    if (!pyTruthy(found)) return { ...ret, result: true, comment: notThere };
    const first = Array.isArray(found) ? (found[0] as Dict) : {};
    const res = 'mediatypeid' in first ? await call('mediatype_delete', [first.mediatypeid]) : false;
    if (pyTruthy(res) && !hasError(res))
      return {
        ...ret,
        result: true,
        comment: deleted,
        changes: { [name]: { old: `Mediatype ${name} exists.`, new: deleted } },
      };
    return { ...ret, comment: `Unable to delete mediatype: ${name}. ${errorOf(res)}` };
  },
});

export default defineStateModule({
  name: 'zabbix_mediatype',
  doc: 'Management of Zabbix mediatypes.',
  virtual: zabbixVirtual,
  functions: { present, absent },
});
