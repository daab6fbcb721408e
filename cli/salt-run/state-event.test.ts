import { describe, expect, it } from 'vitest';
import { tagMatches } from './state-event.js';

// Salt 3006's salt.utils.stringutils.expr_match, which state.event (module and runner) uses
describe('tagMatches', () => {
  it('matches a glob or a regular expression over the whole tag, not a prefix', () => {
    expect(tagMatches('salt/job/1/ret/m1', 'salt/job/*/ret/*')).toBe(true);
    expect(tagMatches('salt/job/1/ret/m1', 'salt/job/\\d+/ret/.*')).toBe(true);
    expect(tagMatches('salt/job/1/ret/m1', 'salt/job')).toBe(false);
    expect(tagMatches('salt/job/1/ret/m1', 'salt/job/\\d+')).toBe(false);
    expect(tagMatches('salt/auth', 'salt/auth')).toBe(true);
    expect(tagMatches('salt/auth', '[')).toBe(false);
  });
});
