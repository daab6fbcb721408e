import { describe, expect, it } from 'vitest';
import { renderReturnsSummary, returnRetcode } from './returns-summary.js';

const RULE = '-------------------------------------------';

describe('returns summary', () => {
  const returns = {
    m1: { ret: true, retcode: 0 },
    m2: {
      ret: 'Minion did not return. [No response]\nThe minions may not have all finished running',
      retcode: 1,
    },
    m3: { ret: false, retcode: 1 },
    m4: { ret: 'Minion did not return. [Not connected]', retcode: 1 },
  };

  it('counts targeted, returned, missing and failed minions', () => {
    expect(renderReturnsSummary(returns)).toBe(
      `\n\n${RULE}\nSummary\n${RULE}\n# of minions targeted: 4\n# of minions returned: 2\n` +
        `# of minions that did not return: 2\n# of minions with errors: 1\n${RULE}`,
    );
  });

  it('names the minions with -v', () => {
    expect(renderReturnsSummary(returns, { verbose: true })).toContain(
      '# of minions with errors: 1\nMinions not connected: m4\nMinions not responding: m2\nMinions with failures: m3\n',
    );
  });

  it('reads retcodes as Salt does', () => {
    expect(returnRetcode({ retcode: 2 })).toBe(2);
    expect(returnRetcode({ retcode: { a: 1, b: 3 } })).toBe(3);
    expect(returnRetcode(false)).toBe(1);
    expect(returnRetcode('x')).toBe(0);
  });
});
