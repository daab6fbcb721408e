import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Changes, FolderChanges } from './folder-changes.js';

/** Takes changes until `names` holds `want` (a watch event comes a moment after the write). */
async function changesUntil(f: FolderChanges, want: string): Promise<Set<string>> {
  const got = new Set<string>();
  for (let i = 0; i < 400; i++) {
    const c = f.take();
    expect(c.full).toBe(false);
    for (const n of (c as Extract<Changes, { full: false }>).names) got.add(n);
    if (got.has(want)) return got;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no change ${want}: saw ${[...got].join(', ')}`);
}

describe('FolderChanges: which files a sync round must look at', () => {
  const roots: string[] = [];
  const open: FolderChanges[] = [];
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), 'tsalt-folder-changes-'));
    roots.push(d);
    return d;
  };
  afterEach(() => {
    for (const f of open.splice(0)) f.close();
    for (const d of roots.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('scans in full until the folder exists, then names only the files written', async () => {
    const dir = join(tmp(), 'sessions');
    let calls = 0;
    const f = new FolderChanges(dir, { depth: 1, fullEveryMs: 3_600_000, onChange: () => calls++ });
    open.push(f);
    expect(f.take()).toEqual({ full: true });
    expect(f.take()).toEqual({ full: true });
    mkdirSync(dir);
    // watched from this round on; what was written before it is in this full scan
    expect(f.take()).toEqual({ full: true });
    writeFileSync(join(dir, 'm1'), 'key');
    expect(await changesUntil(f, 'm1')).toEqual(new Set(['m1']));
    expect(calls).toBeGreaterThan(0);
    expect(f.take()).toEqual({ full: false, names: new Set() });
  });

  it('asks for a full scan again after fullEveryMs, the safety net', () => {
    const dir = tmp();
    const f = new FolderChanges(dir, { depth: 1, fullEveryMs: 60_000 });
    open.push(f);
    const t = Date.now();
    expect(f.take(t)).toEqual({ full: true });
    expect(f.take(t + 1_000).full).toBe(false);
    expect(f.take(t + 60_000)).toEqual({ full: true });
    expect(f.take(t + 61_000).full).toBe(false);
  });

  it('depth 2: a new subfolder is named as a whole, then its files one by one', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'old'));
    const f = new FolderChanges(dir, { depth: 2, fullEveryMs: 3_600_000 });
    open.push(f);
    expect(f.take()).toEqual({ full: true });
    // a subfolder there at the full scan is watched
    writeFileSync(join(dir, 'old', 'data.p'), 'x');
    expect(await changesUntil(f, 'old/data.p')).toContain('old/data.p');
    mkdirSync(join(dir, 'm2'));
    expect(await changesUntil(f, 'm2/')).toContain('m2/');
    writeFileSync(join(dir, 'm2', 'mine.p'), 'y');
    expect(await changesUntil(f, 'm2/mine.p')).toContain('m2/mine.p');
  });
});
