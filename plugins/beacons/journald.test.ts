import { describe, expect, it } from 'vitest';
import { beaconCtx } from './_test-ctx.js';
import journald from './journald.js';

describe('journald beacon', () => {
  it('is refused as Salt refuses it without the systemd library', () => {
    expect(journald.validate?.({ services: { sshd: 'x' } })).toBe(
      'Services configuration for journald beacon must be a list of dictionaries.',
    );
    expect(journald.validate?.({})).toBe('systemd library is missing.');
    expect(() => journald.beacon(beaconCtx(), {})).toThrow('systemd library is missing.');
  });
});
