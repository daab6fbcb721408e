import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './_line-diff.js';

// Expectations: Python's difflib.unified_diff over the same lines.
describe('unifiedDiff', () => {
  it('prints hunks as difflib does', () => {
    expect(unifiedDiff('a\nb\nc\n', 'a\nx\nc\nd\n')).toBe(
      '--- \n+++ \n@@ -1,3 +1,4 @@\n a\n-b\n+x\n c\n+d\n',
    );
    expect(unifiedDiff('', 'a\n')).toBe('--- \n+++ \n@@ -0,0 +1 @@\n+a\n');
    expect(unifiedDiff('a\n', 'a\n')).toBe('');
    const before = `${Array.from({ length: 10 }, (_, i) => `l${i}`).join('\n')}\n`;
    const after = before.replace('l1\n', 'L1\n').replace('l9\n', 'L9\n');
    expect(unifiedDiff(before, after)).toBe(
      '--- \n+++ \n@@ -1,5 +1,5 @@\n l0\n-l1\n+L1\n l2\n l3\n l4\n@@ -7,4 +7,4 @@\n l6\n l7\n l8\n-l9\n+L9\n',
    );
  });
});
