/**
 * What Salt's `zabbix_*` state modules share: the connection keywords a state passes on to
 * the `zabbix` execution module, its functions called as the states call them, and Python's
 * `'error' in answer` test on an answer.
 */
import type { ExecContext, ExtraArgs } from '../kernel/index.js';
import { pythonError } from '../modules/_py-exception.js';
import { pyShortTypeName } from '../modules/_py-type-name.js';

const CONN_KEYS = ['_connection_user', '_connection_password', '_connection_url'] as const;

/** The `_connection_*` keywords of a state's `**kwargs`. */
export function zabbixConn(extra: ExtraArgs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of CONN_KEYS) if (k in extra.kwargs) out[k] = extra.kwargs[k];
  return out;
}

/** The `zabbix` module's functions, with the state's connection keywords. */
export function zabbixCaller(ctx: ExecContext, conn: Record<string, unknown>) {
  return (fun: string, args: readonly unknown[] = [], kwargs: Record<string, unknown> = {}) =>
    ctx.call(`zabbix.${fun}`, args, { ...kwargs, ...conn });
}

/** Python's `'error' in answer`: a list's item, a dict's key, a string's substring. */
export function hasError(answer: unknown): boolean {
  if (Array.isArray(answer)) return answer.includes('error');
  if (typeof answer === 'string') return answer.includes('error');
  if (answer && typeof answer === 'object') return 'error' in answer;
  throw pythonError('TypeError', `argument of type '${pyShortTypeName(answer)}' is not iterable`);
}

/** `answer['error']` as Python's str(), for a comment. */
export const errorOf = (answer: unknown): string =>
  answer && typeof answer === 'object' && !Array.isArray(answer)
    ? String((answer as Record<string, unknown>).error)
    : '';

/** The `zabbix` module is there (Salt's `'zabbix.<fn>' in __salt__`); this state needs nothing else. */
export const zabbixVirtual = () => true as const;

/** The connection keywords, for each state's doc. */
export const CONN_DOC = `

_connection_user, _connection_password, _connection_url: the Zabbix frontend's credentials
and API URL (else the zabbix.user, zabbix.password and zabbix.url options).`;
