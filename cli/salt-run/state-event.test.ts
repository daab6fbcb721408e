import { describe, expect, it } from 'vitest';
import { exprMatch } from '../../modules/_expr-match.js';
import { tagMatches } from './state-event.js';

// the runner's copy of Salt's expr_match must answer as the module's (modules/_expr-match.test.ts)
describe('tagMatches', () => {
  it("answers as modules/_expr-match.ts's exprMatch", () => {
    const cases: [string, string][] = [
      ['salt/job/1/ret/m1', 'salt/job/*/ret/*'],
      ['salt/job/1/ret/m1', 'salt/job/\\d+/ret/.*'],
      ['salt/job/1/ret/m1', 'salt/job'],
      ['salt/auth', 'salt/auth'],
      ['salt/auth', '['],
      ['salt/auth/extra', 'salt/auth|minion_start'],
      ['salt/minion/m1/minion_start', 'salt/auth|minion_start'],
      ['minion_start', 'salt/auth|minion_start'],
      ['web1', '(?P<n>web)\\d'],
    ];
    for (const [tag, expr] of cases)
      expect([tag, expr, tagMatches(tag, expr)]).toEqual([tag, expr, exprMatch(tag, expr)]);
    expect(tagMatches('salt/auth/extra', 'salt/auth|minion_start')).toBe(true);
  });
});
