import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { fileRecv } from './file-recv.js';
import { fileServerOptions } from './options.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-recv-'));
const lines: string[] = [];
const log = pino({ level: 'warn' }, { write: (l: string) => void lines.push(l) });
const on = fileServerOptions({ cachedir: top, extra: { file_recv: true, file_recv_max_size: 1 } });
const off = fileServerOptions({ cachedir: top });
const load = (path: unknown, data: unknown = 'x', loc = 0) => ({ id: 'm1', path, loc, data });

afterAll(() => rmSync(top, { recursive: true, force: true }));

describe('_file_recv', () => {
  it('writes chunks under <cachedir>/minions/<id>/files/', async () => {
    expect(await fileRecv(on, load(['etc', 'a.txt'], Buffer.from('abc')), 'm1', log)).toBe(true);
    expect(await fileRecv(on, load(['etc', 'a.txt'], Buffer.from('def'), 3), 'm1', log)).toBe(true);
    expect(readFileSync(join(top, 'minions', 'm1', 'files', 'etc', 'a.txt'), 'utf8')).toBe('abcdef');
  });

  it('is off unless file_recv, and says so', async () => {
    expect(await fileRecv(off, load(['b.txt']), 'm1', log)).toBe(false);
    expect(lines.join('')).toContain('file_recv is off on the master');
  });

  it('refuses traversal, absolute paths, another id, bad positions and the size cap', async () => {
    for (const path of [
      ['..', '..', 'etc', 'passwd'],
      ['a', '..', '..', 'x'],
      ['/etc/passwd'],
      'not-a-list',
      [],
    ]) {
      expect(await fileRecv(on, load(path), 'm1', log), JSON.stringify(path)).toBe(false);
    }
    expect(await fileRecv(on, { ...load(['c.txt']), id: 'other' }, 'm1', log)).toBe(false);
    expect(await fileRecv(on, { ...load(['c.txt']), id: '../m1' }, undefined, log)).toBe(false);
    expect(await fileRecv(on, load(['c.txt'], 'x', -1), 'm1', log)).toBe(false);
    expect(await fileRecv(on, load(['big'], Buffer.alloc(10), 1024 * 1024 - 5), 'm1', log)).toBe(false);
    expect(lines.join('')).toContain('file_recv_max_size (1 MiB) exceeded');
    expect(existsSync(join(top, 'minions', 'other'))).toBe(false);
  });

  it('does not follow a symlink planted in the folder out of it', async () => {
    const outside = join(top, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(top, 'minions', 'm1', 'files', 'link'));
    expect(await fileRecv(on, load(['link', 'x.txt']), 'm1', log)).toBe(false);
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);
  });
});
