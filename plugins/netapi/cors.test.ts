import { describe, expect, it } from 'vitest';
import { corsHeaders } from './cors.js';

const opts = (cors_origin: string | string[] | null, cors_allow_credentials = false) => ({
  cors_origin,
  cors_allow_credentials,
});

describe('corsHeaders', () => {
  it('sends nothing by default: a foreign origin is not echoed, no credentials (issue 27 item 15)', () => {
    expect(corsHeaders(opts(null), 'https://evil.example')).toEqual({});
    expect(corsHeaders(opts(null), undefined)).toEqual({});
  });
  it('echoes only the origins cors_origin names or globs, with Vary: Origin', () => {
    const o = opts(['https://gui.example', 'https://*.ops.example']);
    expect(corsHeaders(o, 'https://gui.example')).toEqual({
      Vary: 'Origin',
      'Access-Control-Allow-Origin': 'https://gui.example',
      'Access-Control-Expose-Headers': 'GET, POST',
    });
    expect(corsHeaders(o, 'https://a.ops.example')['Access-Control-Allow-Origin']).toBe(
      'https://a.ops.example',
    );
    expect(corsHeaders(o, 'https://evil.example')).toEqual({ Vary: 'Origin' });
    expect(corsHeaders(opts('https://gui.example'), 'https://gui.example.evil')).toEqual({ Vary: 'Origin' });
  });
  it('`*` allows any origin without credentials, even when credentials are switched on', () => {
    expect(corsHeaders(opts('*', true), 'https://evil.example')).toEqual({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'GET, POST',
    });
  });
  it('credentials only with cors_allow_credentials, only to named origins', () => {
    const o = opts(['*', 'https://gui.example'], true);
    expect(corsHeaders(o, 'https://gui.example')['Access-Control-Allow-Credentials']).toBe('true');
    expect(corsHeaders(o, 'https://evil.example')).toEqual({
      Vary: 'Origin',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'GET, POST',
    });
    expect(corsHeaders(opts(['https://gui.example']), 'https://gui.example')).not.toHaveProperty(
      'Access-Control-Allow-Credentials',
    );
  });
});
