import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acceptedMinionIds, SETTLED_MS } from './accepted-keys.js';

describe('acceptedMinionIds', () => {
  let pki: string;
  let accepted: string;

  beforeEach(() => {
    pki = mkdtempSync(join(tmpdir(), 'tsalt-accepted-'));
    accepted = join(pki, 'minions');
    mkdirSync(accepted);
  });
  afterEach(() => rmSync(pki, { recursive: true, force: true }));

  /** Sets the folder's mtime to `agoMs` in the past (as if nothing changed since). */
  function age(agoMs: number): Date {
    const when = new Date(Date.now() - agoMs);
    utimesSync(accepted, when, when);
    return when;
  }

  it('lists the accepted ids sorted, without hidden files', () => {
    for (const id of ['web2', 'db1', '.hidden', 'web1']) writeFileSync(join(accepted, id), 'pem');
    expect(acceptedMinionIds(pki)).toEqual(['db1', 'web1', 'web2']);
  });

  it('is empty when the folder is missing', () => {
    rmSync(accepted, { recursive: true });
    expect(acceptedMinionIds(pki)).toEqual([]);
  });

  it('reuses a settled listing until the folder changes, and sees a new key at once', () => {
    writeFileSync(join(accepted, 'a'), 'pem');
    const settled = age(SETTLED_MS + 5000);
    expect(acceptedMinionIds(pki)).toEqual(['a']);
    // a file added with the folder's mtime put back: the cached listing is what is served
    writeFileSync(join(accepted, 'hidden-by-cache'), 'pem');
    utimesSync(accepted, settled, settled);
    expect(acceptedMinionIds(pki)).toEqual(['a']);
    // a real change moves the mtime: seen by the very next call
    writeFileSync(join(accepted, 'b'), 'pem');
    expect(acceptedMinionIds(pki)).toEqual(['a', 'b', 'hidden-by-cache']);
  });

  it('does not trust a listing read soon after the last change (the mtime may not move again)', () => {
    writeFileSync(join(accepted, 'a'), 'pem');
    const recent = age(10);
    expect(acceptedMinionIds(pki)).toEqual(['a']);
    // a second change in the same clock tick leaves the mtime as it was
    writeFileSync(join(accepted, 'b'), 'pem');
    utimesSync(accepted, recent, recent);
    expect(acceptedMinionIds(pki)).toEqual(['a', 'b']);
  });

  it('sees a key removed', () => {
    writeFileSync(join(accepted, 'a'), 'pem');
    writeFileSync(join(accepted, 'b'), 'pem');
    age(SETTLED_MS + 5000);
    expect(acceptedMinionIds(pki)).toEqual(['a', 'b']);
    rmSync(join(accepted, 'a'));
    expect(acceptedMinionIds(pki)).toEqual(['b']);
  });
});
