import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { genJid, isJid, jidDir, jidToTime } from '../../kernel/jid.js';
import { SALT_VECTORS_DIR as VECTORS_DIR } from './vectors.js';

interface JidVectors {
  is_jid: { input: unknown; result: boolean }[];
  jid_to_time: { input: unknown; result: string }[];
  jid_dir: { samples: { jid: string; path: string; path_md5: string }[] };
  gen_jid: { samples: { opts: Record<string, unknown>; jid: string }[] };
}

const v = JSON.parse(readFileSync(join(VECTORS_DIR, 'jid.json'), 'utf8')) as JidVectors;

function plain(input: unknown): unknown {
  if (input && typeof input === 'object' && '$int' in input) return BigInt((input as { $int: string }).$int);
  return input;
}

describe('jid conformance with Salt 3006.18', () => {
  it.each(v.is_jid)('is_jid($input) = $result', ({ input, result }) => {
    expect(isJid(plain(input))).toBe(result);
  });
  it.each(v.jid_to_time)('jid_to_time($input) = $result', ({ input, result }) => {
    const value = plain(input);
    expect(jidToTime(typeof value === 'bigint' ? value.toString() : (value as string))).toBe(result);
  });
  it.each(v.jid_dir.samples)('jid_dir($jid)', ({ jid, path, path_md5 }) => {
    expect(jidDir(jid, 'jobs')).toBe(path);
    expect(jidDir(jid, 'jobs', 'md5')).toBe(path_md5);
  });
  it('genJid makes valid, strictly increasing jids in both forms', () => {
    const a = genJid();
    const b = genJid();
    expect(isJid(a) && isJid(b)).toBe(true);
    expect(b > a).toBe(true);
    const u = genJid({ unique_jid: true });
    expect(u).toMatch(new RegExp(`^\\d{20}_${process.pid}$`));
    expect(jidToTime(a)).toMatch(/^\d{4}, [A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d\.\d{6}$/);
  });
});
