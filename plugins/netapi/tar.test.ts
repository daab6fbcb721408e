import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tarFiles } from './tar.js';

describe('tarFiles', () => {
  it('writes an archive tar can extract', () => {
    const dir = mkdtempSync(join(tmpdir(), 'netapi-tar-'));
    writeFileSync(
      join(dir, 'k.tar'),
      tarFiles([
        { name: 'minion.pem', content: 'PRIV\n', mode: 0o600 },
        { name: 'minion.pub', content: 'PUB' },
      ]),
    );
    execFileSync('tar', ['-xf', 'k.tar'], { cwd: dir });
    expect(readFileSync(join(dir, 'minion.pem'), 'utf8')).toBe('PRIV\n');
    expect(readFileSync(join(dir, 'minion.pub'), 'utf8')).toBe('PUB');
  });
});
