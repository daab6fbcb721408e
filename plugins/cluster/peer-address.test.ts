import { describe, expect, it } from 'vitest';
import { otherPeers, ownAddresses, parsePeer, peerSources, plainAddress } from './peer-address.js';

describe('cluster_peers entries', () => {
  it('parses hosts, host:port and bracketed IPv6', () => {
    expect(parsePeer('10.0.0.2', 4520)).toEqual({ entry: '10.0.0.2', host: '10.0.0.2', port: 4520 });
    expect(parsePeer('m2.example:4600', 4520)).toMatchObject({ host: 'm2.example', port: 4600 });
    expect(parsePeer('[fd00::2]:4601', 4520)).toMatchObject({ host: 'fd00::2', port: 4601 });
    expect(parsePeer('fd00::2', 4520)).toMatchObject({ host: 'fd00::2', port: 4520 });
  });

  it('refuses what is not an address, with the code', () => {
    for (const bad of ['', 'a b', 'host:0', 'host:99999', 'host:x'])
      expect(() => parsePeer(bad, 4520)).toThrow(
        expect.objectContaining({ code: 'CLUSTER_ERR_PEER_ADDRESS' }),
      );
  });

  it('maps IPv4-mapped IPv6 back to IPv4, and IP peers to themselves', async () => {
    expect(plainAddress('::ffff:127.0.0.2')).toBe('127.0.0.2');
    const sources = await peerSources([parsePeer('127.0.0.3', 1), parsePeer('localhost', 2)]);
    expect(sources.get('127.0.0.3')?.port).toBe(1);
    expect(sources.get('127.0.0.1')?.port).toBe(2);
  });

  it('leaves this master out of the list: its bound address, or any of its own with a wildcard', async () => {
    const peers = ['127.0.0.2', '127.0.0.3', '127.0.0.3:5000'].map((p) => parsePeer(p, 4520));
    expect((await otherPeers(peers, new Set(['127.0.0.2']), 4520)).map((p) => p.entry)).toEqual([
      '127.0.0.3',
      '127.0.0.3:5000',
    ]);
    const own = ownAddresses('0.0.0.0');
    expect(own.has('127.0.0.1')).toBe(true);
    const named = [parsePeer('localhost', 4520), parsePeer('192.0.2.7', 4520)];
    expect((await otherPeers(named, own, 4520)).map((p) => p.entry)).toEqual(['192.0.2.7']);
  });
});
