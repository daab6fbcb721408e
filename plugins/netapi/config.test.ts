import { describe, expect, it } from 'vitest';
import { netapiOptions } from './config.js';

describe('netapiOptions', () => {
  it('defaults the slow-client and connection limits (issue 27 item 14)', () => {
    expect(netapiOptions({ rest_cherrypy: { disable_ssl: true } })).toMatchObject({
      request_timeout: 30,
      headers_timeout: 10,
      max_connections: 768,
      connection_reserve: 128,
      max_connections_per_address: 64,
      queue_size: 1024,
    });
    expect(netapiOptions({ rest_cherrypy: { disable_ssl: true, queue_size: '50' } }).queue_size).toBe(50);
  });
  it('refuses a reserve that leaves no room for unauthenticated connections', () => {
    const bad = { rest_cherrypy: { disable_ssl: true, max_connections: 10, connection_reserve: 10 } };
    expect(() => netapiOptions(bad)).toThrow(expect.objectContaining({ code: 'NETAPI_ERR_OPTIONS' }));
    expect(() => netapiOptions(bad)).toThrow(
      /connection_reserve \(10\) must be smaller than max_connections \(10\)/,
    );
  });
});
