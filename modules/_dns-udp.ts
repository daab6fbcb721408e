/**
 * One DNS exchange over UDP, as dnspython's `dns.query.udp(q, where, timeout, port)` makes it
 * for the `ddns` module: an unconnected socket (an ICMP "port unreachable" is not seen, so a
 * server that is down is a timeout), replies from elsewhere or with another id ignored, and
 * `dns.exception.Timeout` when none comes in time.
 */
import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';
import { decodeMessage, type InMessage } from './_dns-message.js';
import { pythonError } from './_py-exception.js';

export interface UdpTarget {
  /** An IPv4 or IPv6 address (dnspython takes no host names here). */
  nameserver: string;
  port: number;
  /** Seconds, or null to wait for ever (dnspython's `timeout=None`). */
  timeout: number | null;
  signal?: AbortSignal;
}

/** Sends `wire` (whose id is `id`) and resolves with the server's decoded reply. */
export function udpExchange(wire: Buffer, id: number, t: UdpTarget): Promise<InMessage> {
  const family = isIP(t.nameserver);
  if (family === 0) return Promise.reject(pythonError('ValueError', ''));
  return new Promise((resolve, reject) => {
    const sock = createSocket(family === 6 ? 'udp6' : 'udp4');
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (err: Error | null, reply?: InMessage) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      t.signal?.removeEventListener('abort', onAbort);
      sock.close();
      if (err) reject(err);
      else resolve(reply as InMessage);
    };
    const onAbort = () => finish(t.signal?.reason instanceof Error ? t.signal.reason : new Error('aborted'));
    t.signal?.addEventListener('abort', onAbort, { once: true });
    if (t.timeout !== null)
      timer = setTimeout(
        () => finish(pythonError('dns.exception.Timeout', 'The DNS operation timed out.')),
        Math.max(0, t.timeout * 1000),
      );
    sock.on('error', (err) => finish(err));
    sock.on('message', (msg, from) => {
      if (from.address !== t.nameserver && !sameAddress(from.address, t.nameserver)) return;
      if (msg.length < 2 || msg.readUInt16BE(0) !== id) return;
      try {
        finish(null, decodeMessage(msg));
      } catch (err) {
        finish(err as Error);
      }
    });
    try {
      sock.send(wire, t.port, t.nameserver, (err) => {
        if (err) finish(err);
      });
    } catch (err) {
      // a port outside 0-65535: Python's socket refuses it before sending
      finish(
        (err as NodeJS.ErrnoException).code === 'ERR_SOCKET_BAD_PORT'
          ? pythonError('OverflowError', 'sendto(): port must be 0-65535.')
          : (err as Error),
      );
    }
  });
}

/** An address in one spelling (`0:0::1` and `::1` alike; IPv4 mapped into IPv6 as IPv4). */
function canonical(address: string): string {
  const plain = address.replace(/^::ffff:(?=\d+\.)/i, '');
  return isIP(plain) === 6 ? new URL(`http://[${plain}]/`).hostname : plain;
}

function sameAddress(a: string, b: string): boolean {
  return canonical(a) === canonical(b);
}
