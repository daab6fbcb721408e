import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, type LoggerOptions } from '../kernel/log.js';
import { lazyLogger } from './lazy-logger.js';

/** Whether pino's files are in this process's CommonJS cache (kernel/log.ts requires it on first use). */
const pinoLoaded = (): boolean =>
  Object.keys(createRequire(import.meta.url).cache).some((f) => /node_modules[\\/]pino[\\/]/.test(f));

const dirs: string[] = [];
const tempFile = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-lazylog-'));
  dirs.push(dir);
  return join(dir, 'sub', 'minion.log');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The file's text once a line is in it (the log file is written asynchronously). */
async function written(file: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (text.endsWith('\n')) return text;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`nothing was written to ${file}`);
}

describe('lazyLogger (a job process loads pino only to write a line)', () => {
  it('makes no logger for lines below every stream’s level, and a real one for the first line above', async () => {
    const file = tempFile();
    const log = lazyLogger({ name: 't', level: 'quiet', file, fileLevel: 'warning' });
    log.debug('not written');
    log.info({ a: 1 }, 'not written either');
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(pinoLoaded()).toBe(false);
    log.warn({ key: 'secret' }, 'written');
    expect(pinoLoaded()).toBe(true);
    const lines = (await written(file)).trim().split('\n');
    expect(lines).toHaveLength(1);
    const rec = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(rec).toMatchObject({ level: 40, msg: 'written', name: 't', key: '[Redacted]' });
  });

  it.each<[string, LoggerOptions]>([
    ['console warning', { name: 't', level: 'warning' }],
    ['console debug', { name: 't', level: 'debug' }],
    ['quiet without a file', { name: 't', level: 'quiet' }],
    ['quiet console, info file', { name: 't', level: 'quiet', fileLevel: 'info' }],
    ['error console, trace file', { name: 't', level: 'error', fileLevel: 'trace' }],
  ])('%s: isLevelEnabled answers as the real logger does', (_, base) => {
    const opts = base.fileLevel ? { ...base, file: tempFile() } : base;
    const real = createLogger(opts);
    const lazy = lazyLogger(opts);
    for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'nonsense'])
      expect([level, lazy.isLevelEnabled(level)]).toEqual([level, real.isLevelEnabled(level)]);
    expect(lazy.level).toBe(real.level);
  });

  it('gives child loggers of the real one', async () => {
    const file = tempFile();
    const log = lazyLogger({ name: 't', level: 'quiet', file, fileLevel: 'info' });
    log.child({ plugin: 'p' }).info('from the child');
    expect(JSON.parse(await written(file))).toMatchObject({ plugin: 'p', msg: 'from the child' });
  });
});
