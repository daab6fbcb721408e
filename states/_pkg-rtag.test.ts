import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRefresh, pkgModInit, rtagPath } from './_pkg-rtag.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the refresh flag of a state run (Salt rtag)', () => {
  it('is written by mod_init for installed/latest and makes refresh default to True', () => {
    const cachedir = mkdtempSync(path.join(os.tmpdir(), 'tsalt-t-rtag-'));
    dirs.push(cachedir);
    const opts = { cachedir };
    expect(checkRefresh(opts, undefined)).toBe(false);
    expect(pkgModInit(opts, { fun: 'removed' })).toBe(false);
    expect(existsSync(rtagPath(opts) ?? '')).toBe(false);
    expect(pkgModInit(opts, { fun: 'installed' })).toBe(true);
    expect(existsSync(path.join(cachedir, 'pkg_refresh'))).toBe(true);
    expect(checkRefresh(opts, undefined)).toBe(true);
    expect(checkRefresh(opts, false)).toBe(false);
    expect(checkRefresh({}, true)).toBe(true);
  });
});
