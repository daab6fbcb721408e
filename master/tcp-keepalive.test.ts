import { describe, expect, it } from 'vitest';
import { keepAliveIdleMs } from './tcp-keepalive.js';

describe('keepAliveIdleMs', () => {
  it("follows Salt's tcp_keepalive options", () => {
    expect(keepAliveIdleMs({ tcp_keepalive: true, tcp_keepalive_idle: 300 })).toBe(300_000);
    expect(keepAliveIdleMs({ tcp_keepalive: true, tcp_keepalive_idle: -1 })).toBe(0);
    expect(keepAliveIdleMs({ tcp_keepalive: false, tcp_keepalive_idle: 300 })).toBeUndefined();
  });
});
