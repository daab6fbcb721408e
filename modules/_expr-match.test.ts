import { describe, expect, it } from 'vitest';
import { exprMatch } from './_expr-match.js';

// Salt 3006's salt.utils.stringutils.expr_match (state.event, module and runner; gitfs' saltenv lists)
describe('exprMatch', () => {
  it('matches a glob or a regular expression over the whole line, not a prefix', () => {
    expect(exprMatch('salt/job/1/ret/m1', 'salt/job/*/ret/*')).toBe(true);
    expect(exprMatch('salt/job/1/ret/m1', 'salt/job/\\d+/ret/.*')).toBe(true);
    expect(exprMatch('salt/job/1/ret/m1', 'salt/job')).toBe(false);
    expect(exprMatch('salt/job/1/ret/m1', 'salt/job/\\d+')).toBe(false);
    expect(exprMatch('salt/auth', 'salt/auth')).toBe(true);
    expect(exprMatch('salt/auth', '[')).toBe(false);
  });

  it('leaves an alternation ungrouped, as Salt formats \\A{expr}\\Z', () => {
    // re.match(r'\Asalt/auth|minion_start\Z'): starts with salt/auth, or is minion_start
    // (re.match tries at the start only); Salt 3006.18 answers True, False, False, True here
    expect(exprMatch('salt/auth/extra', 'salt/auth|minion_start')).toBe(true);
    expect(exprMatch('salt/minion/m1/minion_start', 'salt/auth|minion_start')).toBe(false);
    expect(exprMatch('minion_start', 'salt/auth|minion_start')).toBe(true);
    expect(exprMatch('salt/job/1/new', 'salt/auth|minion_start')).toBe(false);
  });

  it('reads Python-only syntax (named groups)', () => {
    expect(exprMatch('web1', '(?P<n>web)\\d')).toBe(true);
  });
});
