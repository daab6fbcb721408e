import { closeSync, mkdtempSync, openSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFiles } from './_proc-open-files.js';

describe('openFiles', () => {
  it('lists this process executable and a file it holds open, sorted and distinct', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsalt-openfiles-'));
    const file = join(realpathSync(dir), 'held');
    writeFileSync(file, 'x');
    const fd = openSync(file, 'r');
    try {
      const files = openFiles();
      expect(files).toContain(realpathSync(process.execPath));
      expect(files).toContain(file);
      expect(files).toEqual([...new Set(files)].sort());
      expect(files.some((f) => f.startsWith('socket:') || f.startsWith('pipe:'))).toBe(false);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
