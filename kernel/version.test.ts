import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { versionLine } from '../cli/version.js';

describe('version', () => {
  it("bin/version-line.cjs (the bin scripts' fast --version) prints what cli/version.ts prints", () => {
    const fast = createRequire(import.meta.url)('../bin/version-line.cjs') as {
      versionLine(prog: string): string;
    };
    for (const prog of ['salt', 'salt-key', 'salt-minion'])
      expect(fast.versionLine(prog)).toBe(versionLine(prog));
  });

  it("--version prints Salt's line for 3006.18, tsalt's version beside it", () => {
    expect(versionLine('salt')).toMatch(/^salt 3006\.18 \(Sulfur; tsalt \d+\.\d+\.\d+\)$/);
  });
});
