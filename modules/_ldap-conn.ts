/**
 * One LDAP connection as python-ldap makes it, for the `ldap3` and `ldap` modules and the
 * `ldap` state: an `ldap://`, `ldaps://` or `ldapi://` URL, optional StartTLS, a simple or SASL
 * bind, then search/add/delete/modify, each numbered as libldap numbers its messages so that a
 * failure reads as python-ldap's (see `_ldap-errors.ts`). The `ldapts` client (pure TypeScript,
 * no subprocess, so the bind password is never on a command line) is loaded on first use.
 * Values are bytes (`Uint8Array`) as python-ldap's are.
 */
import { connect as netConnect } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import {
  filterError,
  type LdapFailure,
  LdapFailureError,
  type LdapOp,
  serverDown,
  serverFailure,
} from './_ldap-errors.js';

type Ldapts = typeof import('ldapts');
type LdapClient = InstanceType<Ldapts['Client']>;
let driver: Promise<Ldapts> | undefined;
const ldapts = (): Promise<Ldapts> => {
  driver ??= import('ldapts');
  return driver;
};

/** python-ldap's search scopes (`ldap.SCOPE_*`) as ldapts names them. */
export const SCOPES = { BASE: 'base', ONELEVEL: 'one', SUBTREE: 'sub', SUBORDINATE: 'children' } as const;
export type LdapScope = (typeof SCOPES)[keyof typeof SCOPES];

/** Where and how to connect, already checked. */
export interface LdapTarget {
  url: string;
  tls: ConnectionOptions;
  startTls: boolean;
  timeoutMs?: number;
  connectTimeoutMs?: number;
}

/** One search result entry: its DN and each attribute's values, in the server's order. */
export type LdapEntry = [dn: string, attrs: Record<string, Uint8Array[]>];

/** One change of a modify request. */
export interface LdapMod {
  op: 'add' | 'delete' | 'replace';
  attr: string;
  vals: Uint8Array[];
}

const DEFAULT_LDAPI = '/var/run/slapd/ldapi';

/** The first URL of a space-separated list, as ldapts wants it, and a socket path for `ldapi`. */
function parseUrl(url: string): { url: string; socketPath?: string } {
  const first = url.trim().split(/\s+/)[0] ?? '';
  const m = /^ldapi:\/\/([^/]*)\/?/i.exec(first);
  if (!m) return { url: first };
  return { url: 'ldap://localhost', socketPath: m[1] ? decodeURIComponent(m[1]) : DEFAULT_LDAPI };
}

const isNetworkError = (e: unknown): boolean =>
  e instanceof Error &&
  (typeof (e as NodeJS.ErrnoException).code === 'string' ||
    /Connection (timeout|closed)|socket/i.test(e.message));

const toBytes = (v: unknown): Uint8Array =>
  Buffer.isBuffer(v) ? new Uint8Array(v) : Buffer.from(String(v), 'utf8');

/** An open LDAP connection; every method throws {@link LdapFailureError} for an LDAP failure. */
export class LdapConnection {
  readonly #client: LdapClient;
  readonly #lib: Ldapts;
  #msgid = 0;

  private constructor(lib: Ldapts, client: LdapClient) {
    this.#lib = lib;
    this.#client = client;
  }

  /** Makes the client; nothing is sent until the first operation (as libldap). */
  static async open(target: LdapTarget): Promise<LdapConnection> {
    const lib = await ldapts();
    const { url, socketPath } = parseUrl(target.url);
    const client = new lib.Client({
      url,
      strictDN: false,
      tlsOptions: target.tls,
      ...(target.timeoutMs ? { timeout: target.timeoutMs } : {}),
      ...(target.connectTimeoutMs ? { connectTimeout: target.connectTimeoutMs } : {}),
      ...(socketPath ? { createConnection: () => netConnect(socketPath) } : {}),
    });
    const conn = new LdapConnection(lib, client);
    if (target.startTls) await conn.#run('bind', () => client.startTLS(target.tls));
    return conn;
  }

  /** Runs one operation as message `++msgid`, its failure turned into python-ldap's. */
  async #run<T>(op: LdapOp, fn: () => Promise<T>, dn?: string): Promise<T> {
    const msgid = ++this.#msgid;
    try {
      return await fn();
    } catch (e) {
      throw new LdapFailureError(await this.#failure(op, msgid, e, dn));
    }
  }

  async #failure(op: LdapOp, msgid: number, e: unknown, dn: string | undefined): Promise<LdapFailure> {
    if (e instanceof this.#lib.ResultCodeError) {
      const matched = e.code === 32 && dn !== undefined ? await this.#matched(dn) : '';
      // ldapts appends ` Code: 0x..` to the server's diagnostic message
      const info = e.message.replace(/\s*Code: 0x[0-9a-f]+$/i, '');
      return serverFailure(op, msgid, e.code, info, matched);
    }
    if (e instanceof LdapFailureError) return e.failure;
    if (op === 'search' && e instanceof Error && !isNetworkError(e)) return filterError();
    return serverDown();
  }

  /** The nearest existing ancestor of `dn` (the server's `matchedDN` of a NO_SUCH_OBJECT). */
  async #matched(dn: string): Promise<string> {
    const parts = dn.split(/(?<!\\),/);
    for (let i = 1; i < parts.length; i++) {
      const base = parts.slice(i).join(',').trim();
      try {
        this.#msgid++;
        await this.#client.search(base, { scope: 'base', attributes: ['1.1'] });
        return base;
      } catch {}
    }
    return '';
  }

  /** A simple bind (`simple_bind_s`). */
  bindSimple(dn: string, password: string): Promise<void> {
    return this.#run('bind', () => this.#client.bind(dn, password));
  }

  /** A SASL bind with a mechanism ldapts speaks (EXTERNAL, PLAIN). */
  bindSasl(mechanism: 'EXTERNAL' | 'PLAIN', password?: string): Promise<void> {
    return this.#run('bind', () => this.#client.bind(mechanism, password));
  }

  /** `search_s`: every entry's DN and attributes, values as bytes. */
  async search(
    base: string,
    scope: LdapScope,
    filter: string,
    attrlist: string[] | null,
    attrsonly: boolean,
  ): Promise<LdapEntry[]> {
    const requested = new Set(attrlist ?? []);
    const res = await this.#run(
      'search',
      () =>
        this.#client.search(base, {
          scope,
          filter,
          ...(attrlist ? { attributes: attrlist, explicitBufferAttributes: attrlist } : {}),
          returnAttributeValues: !attrsonly,
        }),
      base,
    );
    return res.searchEntries.map((entry) => {
      const attrs: Record<string, Uint8Array[]> = {};
      for (const [k, v] of Object.entries(entry)) {
        if (k === 'dn') continue;
        const vals = Array.isArray(v) ? v : [v];
        // ldapts lists requested attributes the entry lacks with no values: python-ldap does not
        if (vals.length === 0 && requested.has(k) && !attrsonly) continue;
        attrs[k] = vals.map(toBytes);
      }
      return [entry.dn, attrs];
    });
  }

  /** `add_s`. */
  add(dn: string, attrs: ReadonlyArray<readonly [string, Uint8Array[]]>): Promise<void> {
    const attributes = attrs.map(
      ([type, vals]) => new this.#lib.Attribute({ type, values: vals.map((v) => Buffer.from(v)) }),
    );
    return this.#run('add', () => this.#client.add(dn, attributes), dn);
  }

  /** `delete_s`. */
  delete(dn: string): Promise<void> {
    return this.#run('delete', () => this.#client.del(dn), dn);
  }

  /** `modify_s`. */
  modify(dn: string, mods: readonly LdapMod[]): Promise<void> {
    const changes = mods.map(
      (m) =>
        new this.#lib.Change({
          operation: m.op,
          modification: new this.#lib.Attribute({ type: m.attr, values: m.vals.map((v) => Buffer.from(v)) }),
        }),
    );
    return this.#run('modify', () => this.#client.modify(dn, changes), dn);
  }

  /** Unbinds and closes; never fails. */
  async close(): Promise<void> {
    try {
      await this.#client.unbind();
    } catch {}
  }
}
