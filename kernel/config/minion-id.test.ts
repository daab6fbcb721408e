import { describe, expect, it } from 'vitest';
import { resolveMinionId } from './minion-id.js';

const base = { id: null, minion_id_lowercase: false, append_domain: null };

describe('resolveMinionId', () => {
  it('keeps a configured id', () => {
    expect(resolveMinionId({ ...base, id: 'web1' }, () => 'host')).toBe('web1');
  });

  it('uses the host name when id is null or empty', () => {
    expect(resolveMinionId(base, () => 'Host-A')).toBe('Host-A');
    expect(resolveMinionId({ ...base, id: '' }, () => 'host-b')).toBe('host-b');
    expect(resolveMinionId({ ...base, minion_id_lowercase: true }, () => 'Host-A')).toBe('host-a');
  });

  it('appends append_domain as Salt does', () => {
    expect(resolveMinionId({ ...base, id: 'web1', append_domain: 'example.com' })).toBe('web1.example.com');
    expect(resolveMinionId({ ...base, id: 'web1.example.com', append_domain: 'example.com' })).toBe(
      'web1.example.com',
    );
    expect(resolveMinionId({ ...base, id: 'web1.', append_domain: 'example.com' })).toBe('web1.');
    expect(resolveMinionId({ ...base, append_domain: 'example.com' }, () => '10.0.0.1')).toBe('10.0.0.1');
  });

  it('defaults to os.hostname()', () => {
    expect(resolveMinionId(base).length).toBeGreaterThan(0);
  });
});
