/**
 * An SSH server that does only the first key exchange (RFC 4253 with curve25519-sha256 and an
 * ssh-ed25519 host key, RFC 8731/8709) and then hangs up: enough for `ssh-keyscan` to read its
 * host key. Tests of `ssh.recv_known_host_entries` and `ssh_known_hosts.present` use it where no
 * sshd is installed. Clients asking for another host key type get no common algorithm and are
 * disconnected, as a real sshd with one host key would.
 */
import {
  createHash,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  type KeyObject,
  sign,
} from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';

const BANNER = 'SSH-2.0-tsalt_test_hostkey';
const MSG_KEXINIT = 20;
const MSG_KEX_ECDH_INIT = 30;
const MSG_KEX_ECDH_REPLY = 31;

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

const sshString = (data: Buffer | string) => {
  const b = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return Buffer.concat([u32(b.length), b]);
};

function mpint(raw: Buffer): Buffer {
  let i = 0;
  while (i < raw.length && raw[i] === 0) i++;
  let b = raw.subarray(i);
  if (b.length > 0 && (b[0] as number) & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return sshString(b);
}

/** One binary packet, unencrypted (before NEWKEYS): length, padding length, payload, padding. */
function packet(payload: Buffer): Buffer {
  let pad = 8 - ((5 + payload.length) % 8);
  if (pad < 4) pad += 8;
  return Buffer.concat([u32(1 + payload.length + pad), Buffer.from([pad]), payload, Buffer.alloc(pad)]);
}

const rawPublic = (key: KeyObject) => key.export({ format: 'der', type: 'spki' }).subarray(-32);

/** The server's KEXINIT payload. */
function kexinit(): Buffer {
  const lists = [
    'curve25519-sha256,curve25519-sha256@libssh.org',
    'ssh-ed25519',
    'aes128-ctr',
    'aes128-ctr',
    'hmac-sha2-256',
    'hmac-sha2-256',
    'none',
    'none',
    '',
    '',
  ];
  return Buffer.concat([
    Buffer.from([MSG_KEXINIT]),
    Buffer.alloc(16, 7),
    ...lists.map((l) => sshString(l)),
    Buffer.from([0]),
    u32(0),
  ]);
}

/** The host-key algorithms a client's KEXINIT offers (its second name-list). */
function offeredHostKeys(payload: Buffer): string[] {
  let at = 17;
  const lists: string[] = [];
  for (let i = 0; i < 2; i++) {
    const len = payload.readUInt32BE(at);
    lists.push(payload.subarray(at + 4, at + 4 + len).toString());
    at += 4 + len;
  }
  return (lists[1] ?? '').split(',');
}

export interface HostKeyServer {
  port: number;
  /** The host key as a known_hosts key field (base64 of the ssh-ed25519 blob). */
  key: string;
  close(): Promise<void>;
}

/** Starts the server on `host` (an ephemeral port). */
export async function startHostKeyServer(host = '127.0.0.1'): Promise<HostKeyServer> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const blob = Buffer.concat([sshString('ssh-ed25519'), sshString(rawPublic(publicKey))]);
  const sockets = new Set<Socket>();
  const server: Server = createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => sock.destroy());
    serve(sock, blob, privateKey);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    key: blob.toString('base64'),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function serve(sock: Socket, blob: Buffer, hostKey: KeyObject): void {
  const serverInit = kexinit();
  let buf = Buffer.alloc(0);
  let clientBanner: string | undefined;
  let clientInit: Buffer | undefined;
  sock.write(`${BANNER}\r\n`);
  sock.write(packet(serverInit));
  sock.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    if (clientBanner === undefined) {
      const eol = buf.indexOf('\n');
      if (eol < 0) return;
      clientBanner = buf.subarray(0, eol).toString().replace(/\r$/, '');
      buf = buf.subarray(eol + 1);
    }
    while (buf.length >= 5) {
      const len = buf.readUInt32BE(0);
      if (buf.length < 4 + len) return;
      const pad = buf[4] as number;
      const payload = buf.subarray(5, 4 + len - pad);
      buf = buf.subarray(4 + len);
      if (payload[0] === MSG_KEXINIT) {
        clientInit = Buffer.from(payload);
        if (!offeredHostKeys(clientInit).includes('ssh-ed25519')) sock.destroy();
      } else if (payload[0] === MSG_KEX_ECDH_INIT && clientInit) {
        const qc = payload.subarray(5, 5 + payload.readUInt32BE(1));
        const eph = generateKeyPairSync('x25519');
        const qs = rawPublic(eph.publicKey);
        const peer = createPublicKey({
          key: Buffer.concat([Buffer.from('302a300506032b656e032100', 'hex'), qc]),
          format: 'der',
          type: 'spki',
        });
        const shared = diffieHellman({ privateKey: eph.privateKey, publicKey: peer });
        const h = createHash('sha256')
          .update(
            Buffer.concat([
              sshString(clientBanner),
              sshString(BANNER),
              sshString(clientInit),
              sshString(serverInit),
              sshString(blob),
              sshString(qc),
              sshString(qs),
              mpint(shared),
            ]),
          )
          .digest();
        const sig = Buffer.concat([sshString('ssh-ed25519'), sshString(sign(null, h, hostKey))]);
        sock.write(
          packet(
            Buffer.concat([
              Buffer.from([MSG_KEX_ECDH_REPLY]),
              sshString(blob),
              sshString(qs),
              sshString(sig),
            ]),
          ),
        );
        sock.end();
      }
    }
  });
}
