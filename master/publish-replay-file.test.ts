import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packIpc } from '../kernel/serial/index.js';
import { ReplayFile } from './publish-replay-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'tsalt-replay-'));
  dirs.push(d);
  return d;
}
const rec = (t: number, jid: string) => packIpc({ t, load: { jid, fun: 'test.ping' } });

describe('ReplayFile', () => {
  it('appends records (mode 0600) and reads back those in the window, in order', async () => {
    const errors: Error[] = [];
    const f = new ReplayFile(tmp(), (e) => errors.push(e));
    f.append(rec(1000, 'old'));
    f.append(rec(5000, 'a'));
    f.append(rec(6000, 'b'));
    await f.flush();
    expect(statSync(f.path).mode & 0o777).toBe(0o600);
    expect((await f.read(2000)).map((r) => r.load.jid)).toEqual(['a', 'b']);
    expect(errors).toEqual([]);
  });

  it('stops at a torn or corrupt tail without losing what is before it', async () => {
    const f = new ReplayFile(tmp(), () => undefined);
    f.append(rec(5000, 'a'));
    await f.flush();
    appendFileSync(f.path, Buffer.from([0, 0, 0, 50, 1, 2, 3]));
    expect((await f.read(0)).map((r) => r.load.jid)).toEqual(['a']);
    appendFileSync(f.path, Buffer.from('garbage that is not a record'));
    expect((await f.read(0)).map((r) => r.load.jid)).toEqual(['a']);
  });

  it('rewrites the file with only the given records, after queued appends', async () => {
    const f = new ReplayFile(tmp(), () => undefined);
    f.append(rec(5000, 'a'));
    f.append(rec(6000, 'b'));
    await f.rewrite([rec(6000, 'b')]);
    f.append(rec(7000, 'c'));
    await f.flush();
    expect((await f.read(0)).map((r) => r.load.jid)).toEqual(['b', 'c']);
    expect(readFileSync(f.path).length).toBeGreaterThan(0);
  });

  it('writes an append at once, and one made during a rewrite after it, into the new file', async () => {
    const f = new ReplayFile(tmp(), () => undefined);
    f.append(rec(5000, 'a'));
    // on disk before any await: a crash right after the publish still has it
    expect(readFileSync(f.path).length).toBeGreaterThan(0);
    const rewritten = f.rewrite([rec(5000, 'a')]);
    f.append(rec(6000, 'b'));
    await rewritten;
    f.append(rec(7000, 'c'));
    expect((await f.read(0)).map((r) => r.load.jid)).toEqual(['a', 'b', 'c']);
    // a file replaced behind the open descriptor (a rewrite's rename) is written again after the next rewrite
    await f.rewrite([]);
    f.append(rec(8000, 'd'));
    await f.flush();
    expect((await f.read(0)).map((r) => r.load.jid)).toEqual(['d']);
  });

  it('reads nothing from a missing file and reports write errors instead of throwing', async () => {
    const errors: Error[] = [];
    const f = new ReplayFile(join(tmp(), 'no', 'such', 'dir'), (e) => errors.push(e));
    expect(await f.read(0)).toEqual([]);
    f.append(rec(1, 'x'));
    await f.flush();
    expect(errors.length).toBe(1);
  });
});
