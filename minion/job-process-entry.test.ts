import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jobProcessEntry } from './job-process-entry.js';

describe('jobProcessEntry', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-jp-entry-'));
  const plain = join(dir, 'job-process.js');
  const bundle = join(dir, 'bundle', 'job-process.js');
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (file: string, seconds: number): void => {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '');
    utimesSync(file, seconds, seconds);
  };

  it('forks the bundle while it is as new as job-process.js, and job-process.js otherwise', () => {
    write(plain, 1_000);
    expect(jobProcessEntry({}, dir)).toBe(plain);
    write(bundle, 1_000);
    expect(jobProcessEntry({}, dir)).toBe(bundle);
    expect(jobProcessEntry({ TSALT_PROCESS_BUNDLE: '0' }, dir)).toBe(plain);
    write(plain, 2_000);
    expect(jobProcessEntry({}, dir)).toBe(plain);
  });
});
