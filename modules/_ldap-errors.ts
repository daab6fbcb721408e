/**
 * LDAP failures as python-ldap reports them, for the `ldap3` and `ldap` modules: the exception
 * class named for the result code (`INVALID_CREDENTIALS`), its dict of fields (`msgtype`,
 * `msgid`, `result`, `desc` from libldap's `ldap_err2string`, `ctrls`, then the server's
 * `info` and `matched` when it sent them), and Salt's `LDAPError` wrapping of it.
 */
import { pyRepr } from '../kernel/python/index.js';
import { pythonError } from './_py-exception.js';

/** python-ldap's exception name and libldap's description of each result code. */
const CODES: Readonly<Record<number, readonly [string, string]>> = {
  1: ['OPERATIONS_ERROR', 'Operations error'],
  2: ['PROTOCOL_ERROR', 'Protocol error'],
  3: ['TIMELIMIT_EXCEEDED', 'Time limit exceeded'],
  4: ['SIZELIMIT_EXCEEDED', 'Size limit exceeded'],
  7: ['AUTH_METHOD_NOT_SUPPORTED', 'Authentication method not supported'],
  8: ['STRONG_AUTH_REQUIRED', 'Strong(er) authentication required'],
  10: ['REFERRAL', 'Referral'],
  11: ['ADMINLIMIT_EXCEEDED', 'Administrative limit exceeded'],
  12: ['UNAVAILABLE_CRITICAL_EXTENSION', 'Critical extension is unavailable'],
  13: ['CONFIDENTIALITY_REQUIRED', 'Confidentiality required'],
  14: ['SASL_BIND_IN_PROGRESS', 'SASL bind in progress'],
  16: ['NO_SUCH_ATTRIBUTE', 'No such attribute'],
  17: ['UNDEFINED_TYPE', 'Undefined attribute type'],
  18: ['INAPPROPRIATE_MATCHING', 'Inappropriate matching'],
  19: ['CONSTRAINT_VIOLATION', 'Constraint violation'],
  20: ['TYPE_OR_VALUE_EXISTS', 'Type or value exists'],
  21: ['INVALID_SYNTAX', 'Invalid syntax'],
  32: ['NO_SUCH_OBJECT', 'No such object'],
  33: ['ALIAS_PROBLEM', 'Alias problem'],
  34: ['INVALID_DN_SYNTAX', 'Invalid DN syntax'],
  35: ['IS_LEAF', 'Entry is a leaf'],
  36: ['ALIAS_DEREF_PROBLEM', 'Alias dereferencing problem'],
  48: ['INAPPROPRIATE_AUTH', 'Inappropriate authentication'],
  49: ['INVALID_CREDENTIALS', 'Invalid credentials'],
  50: ['INSUFFICIENT_ACCESS', 'Insufficient access'],
  51: ['BUSY', 'Server is busy'],
  52: ['UNAVAILABLE', 'Server is unavailable'],
  53: ['UNWILLING_TO_PERFORM', 'Server is unwilling to perform'],
  54: ['LOOP_DETECT', 'Loop detected'],
  64: ['NAMING_VIOLATION', 'Naming violation'],
  65: ['OBJECT_CLASS_VIOLATION', 'Object class violation'],
  66: ['NOT_ALLOWED_ON_NONLEAF', 'Operation not allowed on non-leaf'],
  67: ['NOT_ALLOWED_ON_RDN', 'Operation not allowed on RDN'],
  68: ['ALREADY_EXISTS', 'Already exists'],
  69: ['OBJECT_CLASS_MODS_PROHIBITED', 'Cannot modify object class'],
  71: ['AFFECTS_MULTIPLE_DSAS', 'Operation affects multiple DSAs'],
  80: ['OTHER', 'Internal (implementation specific) error'],
};

/** The response message types (`msgtype`) of the operations the modules run. */
export const MSGTYPE = { bind: 97, search: 101, modify: 103, add: 105, delete: 107 } as const;
export type LdapOp = keyof typeof MSGTYPE;

/** One LDAP failure: python-ldap's exception name and its dict, in python-ldap's key order. */
export interface LdapFailure {
  readonly name: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** A result code the server answered to operation `op` (message `msgid`). */
export function serverFailure(
  op: LdapOp,
  msgid: number,
  code: number,
  info: string,
  matched: string,
): LdapFailure {
  const [name, desc] = CODES[code] ?? [`LDAP_${code}`, `Unknown error (${code})`];
  const fields: Record<string, unknown> = { msgtype: MSGTYPE[op], msgid, result: code, desc, ctrls: [] };
  if (info) fields.info = info;
  if (matched) fields.matched = matched;
  return { name, fields };
}

/** libldap's own failure when the server cannot be reached. */
export const serverDown = (): LdapFailure => ({
  name: 'SERVER_DOWN',
  fields: {
    result: -1,
    desc: "Can't contact LDAP server",
    errno: 107,
    ctrls: [],
    info: 'Transport endpoint is not connected',
  },
});

/** libldap's own failure for a filter it cannot parse. */
export const filterError = (): LdapFailure => ({
  name: 'FILTER_ERROR',
  fields: { result: -7, desc: 'Bad search filter', ctrls: [] },
});

/** An {@link LdapFailure} carried as a thrown error until a module words it. */
export class LdapFailureError extends Error {
  readonly failure: LdapFailure;
  constructor(failure: LdapFailure) {
    super(`${failure.name}: ${pyRepr(failure.fields)}`);
    this.failure = failure;
  }
}

/** Python's `str()` of the exception: its dict. */
export const failureStr = (f: LdapFailure): string => pyRepr(f.fields);

/** Python's `repr()` of the exception: `NAME({...})`. */
export const failureRepr = (f: LdapFailure): string => `${f.name}(${pyRepr(f.fields)})`;

/** Salt's `ldap3.LDAPError` for a backend failure (`_convert_exception`). */
export const ldap3Error = (f: LdapFailure): Error =>
  pythonError('salt.loaded.int.module.ldap3.LDAPError', `exception in ldap backend: ${failureRepr(f)}`);
