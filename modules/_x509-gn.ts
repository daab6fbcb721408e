/**
 * X.509 GeneralNames (subjectAltName, issuerAltName, authorityKeyIdentifier's issuer): parsed
 * from Salt's `type:value` forms (email, uri, dns, rid, ip, dirname), encoded, and rendered back
 * the way Salt's read functions print them (`DNS:`, `IP:`, `mail:`, `URI:`, `RID:`, `dirName:`).
 */
import { isIP } from 'node:net';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { ctx, type DerNode, derOid, readNode, readOid } from './_x509-der.js';
import { buildName, nameDer, nameString, readName } from './_x509-name.js';

/** A domain checked as Salt checks it without idna: ASCII labels, optional wildcard or leading dot. */
function checkDomain(v: string, allowDot: boolean, allowWildcard: boolean): string {
  let s = v;
  const dot = s.startsWith('.');
  if (dot) {
    if (!allowDot) throw new SALT_ERR_EXEC_COMMAND('Leading dots are not allowed in this context');
    s = s.replace(/^\.+/, '');
  }
  const wild = s.startsWith('*.');
  if (wild) {
    if (!allowWildcard) throw new SALT_ERR_EXEC_COMMAND('Wildcards are not allowed in this context');
    s = s.slice(2);
  }
  if (!s) throw new SALT_ERR_EXEC_COMMAND('Empty domain');
  for (const label of s.split('.')) {
    if (!label) throw new SALT_ERR_EXEC_COMMAND('Empty Label');
    if (/[^A-Za-z\d-]/.test(label)) throw new SALT_ERR_EXEC_COMMAND(`Codepoint not allowed in '${s}'`);
  }
  return `${dot ? '.' : ''}${wild ? '*.' : ''}${s}`;
}

function ipBytes(v: string): Buffer {
  const kind = isIP(v);
  if (kind === 4) return Buffer.from(v.split('.').map(Number));
  if (kind === 6) {
    const [head = '', tail = ''] = v.split('::');
    const h = head ? head.split(':') : [];
    const t = v.includes('::') ? (tail ? tail.split(':') : []) : [];
    const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
    return Buffer.from(groups.map((g) => g.padStart(4, '0')).join(''), 'hex');
  }
  throw new SALT_ERR_EXEC_COMMAND(`Provided value ${v} does not seem to be an IP address or network range.`);
}

/** One GeneralName from its Salt type and value. */
export function generalName(type: string, value: unknown): Buffer {
  const typ = type.toLowerCase();
  if (typ === 'dirname') return ctx(4, true, nameDer(buildName(value)));
  const v = String(value);
  if (typ === 'rid') return Buffer.from([0x88, ...derOid(v).subarray(2)]);
  if (typ === 'ip') return ctx(7, false, ipBytes(v));
  if (typ === 'email') {
    const at = v.lastIndexOf('@');
    const out =
      at >= 0
        ? `${v.slice(0, at)}@${checkDomain(v.slice(at + 1), false, false)}`
        : checkDomain(v, true, false);
    return ctx(1, false, Buffer.from(out, 'ascii'));
  }
  if (typ === 'uri') return ctx(6, false, Buffer.from(v, 'ascii'));
  if (typ === 'dns') return ctx(2, false, Buffer.from(checkDomain(v, true, true), 'ascii'));
  if (typ === 'othername') throw new SALT_ERR_INVOCATION('otherName is currently not implemented');
  throw new SALT_ERR_EXEC_COMMAND(`GeneralName type ${typ} is invalid`);
}

/** Salt's reading of a leading `critical` in an OpenSSL-like string: the rest, and whether it was there. */
export function stripCritical(conf: string): { rest: string; critical: boolean } {
  if (!conf.startsWith('critical')) return { rest: conf, critical: false };
  return {
    rest: conf
      .slice(8)
      .replace(/^,+|,+$/g, '')
      .trim(),
    critical: true,
  };
}

/** Salt's list/dict/string forms of general names as (type, value) pairs and a critical flag. */
export function generalNamePairs(val: unknown): { pairs: [string, unknown][]; critical: boolean } {
  if (typeof val === 'string') {
    const { rest: s, critical } = stripCritical(val);
    const pairs = s
      .split(',')
      .map((x) => x.trim())
      .map((x): [string, unknown] => {
        const i = x.indexOf(':');
        return i < 0 ? [x, '__present__'] : [x.slice(0, i).trim(), x.slice(i + 1).trim()];
      });
    return { pairs, critical };
  }
  const list = Array.isArray(val) ? val : [val];
  const critical = list.includes('critical');
  const pairs: [string, unknown][] = [];
  for (const x of list) {
    if (typeof x === 'string' && x.includes(':')) {
      const i = x.indexOf(':');
      pairs.push([x.slice(0, i).trim(), x.slice(i + 1).trim()]);
    } else if (x && typeof x === 'object') pairs.push(...Object.entries(x as Record<string, unknown>));
  }
  return { pairs, critical };
}

function ipText(b: Buffer): string {
  if (b.length === 4) return [...b].join('.');
  return (b.toString('hex').match(/.{4}/g) ?? []).join(':');
}

/** A GeneralName as Salt renders it. */
export function renderGeneralName(n: DerNode): string {
  const text = n.content.toString('ascii');
  switch (n.tag & 0x1f) {
    case 1:
      return `mail:${text}`;
    case 2:
      return `DNS:${text}`;
    case 4:
      return `dirName:${nameString(readName(readNode(n.content)))}`;
    case 6:
      return `URI:${text}`;
    case 7:
      return `IP:${ipText(n.content)}`;
    case 8:
      return `RID:${readOid({ tag: 6, content: n.content, raw: n.raw })}`;
    default:
      return `<GeneralName ${n.tag}>`;
  }
}
