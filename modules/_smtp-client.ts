/**
 * A small SMTP client with the steps and failures of Python's `smtplib` as Salt's
 * `smtp.send_msg` uses it: connect (TLS from the start, or plain then STARTTLS when the server
 * offers it), EHLO, AUTH (CRAM-MD5, PLAIN or LOGIN, as smtplib prefers), MAIL, RCPT, DATA, QUIT.
 * A refusal Salt turns into False is a {@link SmtpRefused}; other failures are thrown as is.
 */
import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP, Socket } from 'node:net';
import { hostname } from 'node:os';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';

/** A refusal smtplib raises and Salt answers with False (its reason goes to the debug log). */
export class SmtpRefused extends Error {}

interface Reply {
  code: number;
  lines: string[];
}

/** One SMTP connection: reads whole replies, writes commands. */
class Conn {
  #sock: Socket | TLSSocket;
  #buf = '';
  #waiters: (() => void)[] = [];
  #closed: Error | null = null;

  constructor(sock: Socket | TLSSocket) {
    this.#sock = sock;
    this.#attach();
  }

  #attach(): void {
    this.#sock.setEncoding('latin1');
    this.#sock.on('data', (d: string) => {
      this.#buf += d;
      this.#wake();
    });
    this.#sock.on('error', (e) => {
      this.#closed = e;
      this.#wake();
    });
    this.#sock.on('close', () => {
      this.#closed ??= new Error('Connection unexpectedly closed');
      this.#wake();
    });
  }

  #wake(): void {
    for (const w of this.#waiters.splice(0)) w();
  }

  async reply(): Promise<Reply> {
    const lines: string[] = [];
    for (;;) {
      const nl = this.#buf.indexOf('\n');
      if (nl < 0) {
        if (this.#closed) throw new Error(`SMTPServerDisconnected: ${this.#closed.message}`);
        await new Promise<void>((r) => this.#waiters.push(r));
        continue;
      }
      const line = this.#buf.slice(0, nl).replace(/\r$/, '');
      this.#buf = this.#buf.slice(nl + 1);
      lines.push(line.slice(4));
      if (line[3] !== '-') return { code: Number.parseInt(line.slice(0, 3), 10) || -1, lines };
    }
  }

  async cmd(text: string): Promise<Reply> {
    this.#sock.write(`${text}\r\n`, 'latin1');
    return this.reply();
  }

  /** STARTTLS: the same connection wrapped in TLS (not verified, as smtplib's default context). */
  async startTls(host: string): Promise<void> {
    this.#sock.removeAllListeners('data');
    const tls = tlsConnect({
      socket: this.#sock as Socket,
      servername: isIP(host) ? undefined : host,
      rejectUnauthorized: false,
    });
    await new Promise<void>((ok, fail) => {
      tls.once('secureConnect', ok);
      tls.once('error', fail);
    });
    this.#sock = tls;
    this.#attach();
  }

  close(): void {
    this.#sock.destroy();
  }
}

/** smtplib's `host:port` form: a single colon splits off the port. */
export function hostPort(server: string, ssl: boolean): { host: string; port: number } {
  const i = server.indexOf(':');
  if (i >= 0 && i === server.lastIndexOf(':')) {
    const port = Number(server.slice(i + 1));
    if (!Number.isInteger(port)) throw new Error('OSError: nonnumeric port');
    return { host: server.slice(0, i), port };
  }
  return { host: server || 'localhost', port: ssl ? 465 : 25 };
}

/** Opens the connection; undefined when the host name does not resolve (Python's gaierror). */
async function open(host: string, port: number, ssl: boolean): Promise<Conn | undefined> {
  try {
    if (!isIP(host)) await lookup(host);
  } catch {
    return undefined;
  }
  const sock = ssl
    ? tlsConnect({ host, port, servername: isIP(host) ? undefined : host, rejectUnauthorized: false })
    : new Socket().connect(port, host);
  await new Promise<void>((ok, fail) => {
    sock.once(ssl ? 'secureConnect' : 'connect', ok);
    sock.once('error', (e: NodeJS.ErrnoException) => fail(new Error(`${e.code ?? 'OSError'}: ${e.message}`)));
  });
  return new Conn(sock);
}

/** The EHLO keywords the server offers, lower case, with their parameters. */
async function ehlo(conn: Conn): Promise<Map<string, string>> {
  const r = await conn.cmd(`ehlo ${hostname()}`);
  if (r.code !== 250) throw new SmtpRefused('The server didn’t reply properly to the HELO greeting.');
  const ext = new Map<string, string>();
  for (const line of r.lines.slice(1)) {
    const m = /^([A-Za-z0-9][A-Za-z0-9-]*)[ =]?(.*)$/.exec(line);
    if (m) ext.set(m[1]!.toLowerCase(), m[2]!.trim());
  }
  return ext;
}

async function login(conn: Conn, ext: Map<string, string>, user: string, password: string): Promise<void> {
  if (!ext.has('auth'))
    throw new Error('SMTPNotSupportedError: SMTP AUTH extension not supported by server.');
  const offered = ext.get('auth')!.toUpperCase().split(/\s+/);
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  let r: Reply | undefined;
  for (const mech of ['CRAM-MD5', 'PLAIN', 'LOGIN'].filter((m) => offered.includes(m))) {
    if (mech === 'CRAM-MD5') {
      r = await conn.cmd('AUTH CRAM-MD5');
      if (r.code === 334) {
        const challenge = Buffer.from(r.lines[0] ?? '', 'base64');
        r = await conn.cmd(b64(`${user} ${createHmac('md5', password).update(challenge).digest('hex')}`));
      }
    } else if (mech === 'PLAIN') r = await conn.cmd(`AUTH PLAIN ${b64(`\0${user}\0${password}`)}`);
    else {
      r = await conn.cmd(`AUTH LOGIN ${b64(user)}`);
      if (r.code === 334) r = await conn.cmd(b64(password));
    }
    if (r.code === 235 || r.code === 503) return;
  }
  if (!r) throw new Error('SMTPException: No suitable authentication method found.');
  throw new SmtpRefused('SMTP Authentication Failure');
}

export interface SmtpSend {
  server: string;
  ssl: boolean;
  username?: string;
  password?: string;
  sender: string;
  recipients: string[];
  data: string;
}

/** Sends one message; true when the server took it, SmtpRefused where smtplib refuses. */
export async function smtpSend(s: SmtpSend): Promise<boolean> {
  const { host, port } = hostPort(s.server, s.ssl);
  const conn = await open(host, port, s.ssl);
  if (!conn) return false;
  try {
    const hello = await conn.reply();
    if (hello.code !== 220) throw new Error(`SMTPConnectError: (${hello.code}, ${hello.lines.join('\n')})`);
    let ext = await ehlo(conn);
    if (!s.ssl && ext.has('starttls')) {
      const r = await conn.cmd('STARTTLS');
      if (r.code !== 220) throw new SmtpRefused('The server does not support the STARTTLS extension.');
      await conn.startTls(host);
      ext = await ehlo(conn);
    }
    if (s.username && s.password) await login(conn, ext, s.username, s.password);
    const crlf = s.data.replace(/\r?\n|\r/g, '\r\n');
    const size = ext.has('size') ? ` size=${Buffer.byteLength(crlf, 'latin1')}` : '';
    if ((await conn.cmd(`mail FROM:<${s.sender}>${size}`)).code !== 250)
      throw new SmtpRefused(`The server didn’t accept the ${s.sender}.`);
    let taken = 0;
    for (const rcpt of s.recipients) {
      const code = (await conn.cmd(`rcpt TO:<${rcpt}>`)).code;
      if (code === 250 || code === 251) taken++;
    }
    if (!taken) throw new SmtpRefused('All recipients were refused.');
    if ((await conn.cmd('data')).code !== 354)
      throw new SmtpRefused('The server replied with an unexpected error code.');
    const body = crlf.replace(/^\./gm, '..');
    if ((await conn.cmd(`${body}${body.endsWith('\r\n') ? '' : '\r\n'}.`)).code !== 250)
      throw new SmtpRefused('The server replied with an unexpected error code.');
    await conn.cmd('quit');
    return true;
  } finally {
    conn.close();
  }
}
