import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JidQueue } from './jid-queue.js';

describe('JidQueue', () => {
  it('refuses a jid it has seen and forgets the oldest past its bound', () => {
    const q = new JidQueue(2);
    expect(q.add('1')).toBe(true);
    expect(q.add('1')).toBe(false);
    expect(q.add('2')).toBe(true);
    expect(q.add('3')).toBe(true);
    expect(q.add('1')).toBe(true);
    expect(q.add('3')).toBe(false);
  });
});

describe('JidQueue with a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-jidq-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const errors: unknown[] = [];
  const file = (name: string) => ({ path: join(dir, name), onError: (e: unknown) => errors.push(e) });
  const tick = () => new Promise((r) => setImmediate(r));

  it('remembers the jids a previous process saw, up to its bound', async () => {
    const a = new JidQueue(3, file('q1'));
    for (const jid of ['20261128010000000001', '2', '3', '4']) expect(a.add(jid)).toBe(true);
    await tick();
    await new Promise((r) => setTimeout(r, 50));
    // a crash: no close(); what the ticks wrote is there
    const b = new JidQueue(3, file('q1'));
    expect(b.add('4')).toBe(false);
    expect(b.add('3')).toBe(false);
    expect(b.add('20261128010000000001')).toBe(true);
    b.close();
    expect(readFileSync(join(dir, 'q1'), 'utf8')).toBe('3\n4\n20261128010000000001\n');
    expect(errors).toEqual([]);
  });

  it('has each jid on disk when add() returns, before the event loop turns', () => {
    const q = new JidQueue(3, file('q0'));
    q.add('20261128010000000002');
    // a process killed right after the job started still leaves the jid behind
    expect(readFileSync(join(dir, 'q0'), 'utf8')).toBe('20261128010000000002\n');
    q.close();
  });

  it('rewrites its file with the queue alone once it grows past four times the bound', async () => {
    const q = new JidQueue(2, file('q2'));
    for (let i = 0; i < 9; i++) {
      q.add(`j${i}`);
      await tick();
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(join(dir, 'q2'), 'utf8').split('\n').length).toBeLessThanOrEqual(9);
    q.close();
    expect(readFileSync(join(dir, 'q2'), 'utf8')).toBe('j7\nj8\n');
  });

  it('keeps working in memory when its file cannot be written, and says so once', () => {
    const seen: unknown[] = [];
    const q = new JidQueue(2, { path: join(dir, 'missing', 'q'), onError: (e) => seen.push(e) });
    expect(q.add('1')).toBe(true);
    expect(q.add('1')).toBe(false);
    q.close();
    expect(seen).toHaveLength(1);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('skips lines that are no jid', () => {
    writeFileSync(join(dir, 'q3'), 'ok1\n\nbad line\n../x/y\nok2\n');
    const q = new JidQueue(5, file('q3'));
    expect(q.add('ok1')).toBe(false);
    expect(q.add('ok2')).toBe(false);
    expect(q.add('bad line')).toBe(true);
    q.close();
    expect(readFileSync(join(dir, 'q3'), 'utf8')).toBe('ok1\nok2\n');
  });
});
