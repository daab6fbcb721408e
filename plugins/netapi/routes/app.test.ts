import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptsHtml, staticFile } from './app.js';

describe('acceptsHtml', () => {
  it('is true only when text/html is listed with q > 0', () => {
    expect(acceptsHtml('text/html,application/xhtml+xml,*/*;q=0.8')).toBe(true);
    expect(acceptsHtml('application/json')).toBe(false);
    expect(acceptsHtml('*/*')).toBe(false);
    expect(acceptsHtml('application/json, text/html;q=0')).toBe(false);
    expect(acceptsHtml(undefined)).toBe(false);
  });
});

describe('staticFile', () => {
  it('resolves files inside the root only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'netapi-static-'));
    const root = join(dir, 'static');
    mkdirSync(join(root, 'scripts'), { recursive: true });
    writeFileSync(join(root, 'scripts', 'a.js'), 'x');
    writeFileSync(join(dir, 'secret'), 's');
    symlinkSync(join(dir, 'secret'), join(root, 'link'));
    expect(await staticFile(root, 'scripts/a.js')).toBe(join(root, 'scripts', 'a.js'));
    expect(await staticFile(root, 'scripts%2Fa.js')).toBe(join(root, 'scripts', 'a.js'));
    for (const bad of [
      '../secret',
      '..%2Fsecret',
      'scripts/../../secret',
      'link',
      'scripts',
      '%zz',
      'a\0b',
      'nope',
    ])
      expect(await staticFile(root, bad), bad).toBeUndefined();
  });
});
