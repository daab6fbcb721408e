import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beaconCtx } from './_test-ctx.js';
import inotify, { closeInotify } from './inotify.js';

const settle = () => new Promise((r) => setTimeout(r, 1500));

describe('inotify beacon (inotifywait)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'inotify-beacon-'));
  const ctx = beaconCtx();
  afterAll(() => {
    closeInotify(ctx.state);
    rmSync(dir, { recursive: true, force: true });
  });

  it("validates with Salt's messages", () => {
    expect(inotify.validate?.({})).toBe('Configuration for inotify beacon must include files.');
    expect(inotify.validate?.({ files: ['/etc'] })).toBe(
      'Configuration for inotify beacon invalid, files must be a dict.',
    );
    expect(inotify.validate?.({ files: { '/etc': { exclude: [] } } })).toBe(
      'Configuration for inotify beacon must contain mask, recurse or auto_add items.',
    );
    expect(inotify.validate?.({ files: { '/etc': { recurse: 1 } } })).toBe(
      'Configuration for inotify beacon recurse must be boolean.',
    );
    expect(inotify.validate?.({ files: { '/etc': { mask: ['modify', 'shout'] } } })).toBe(
      'Configuration for inotify beacon invalid mask option shout.',
    );
  });

  it('sets the watches on the first run, then fires the masked events since, excludes dropped', async () => {
    mkdirSync(join(dir, 'skip'));
    const config = {
      files: {
        [dir]: {
          mask: ['create', 'modify', 'close_write'],
          recurse: true,
          auto_add: true,
          exclude: [join(dir, 'skip'), { '\\.tmp$': { regex: true } }],
        },
      },
    };
    expect(await inotify.beacon(ctx, config)).toEqual([]);
    writeFileSync(join(dir, 'a'), 'hi');
    writeFileSync(join(dir, 'skip', 'b'), 'hi');
    writeFileSync(join(dir, 'c.tmp'), '');
    mkdirSync(join(dir, 'sub'));
    await settle();
    writeFileSync(join(dir, 'sub', 'd'), '');
    await settle();
    expect(await inotify.beacon(ctx, config)).toEqual([
      { tag: dir, path: join(dir, 'a'), change: 'IN_CREATE' },
      { tag: dir, path: join(dir, 'a'), change: 'IN_MODIFY' },
      { tag: dir, path: join(dir, 'a'), change: 'IN_CLOSE_WRITE' },
      { tag: dir, path: join(dir, 'sub'), change: 'IN_CREATE|IN_ISDIR' },
      // as pyinotify: the new folder is watched once its creation is read, what it holds then
      // reported as created after the events read with it
      { tag: join(dir, 'sub'), path: join(dir, 'sub', 'd'), change: 'IN_CREATE' },
    ]);
    expect(await inotify.beacon(ctx, config)).toEqual([]);
    writeFileSync(join(dir, 'sub', 'e'), '');
    await settle();
    expect(await inotify.beacon(ctx, config)).toEqual([
      { tag: join(dir, 'sub'), path: join(dir, 'sub', 'e'), change: 'IN_CREATE' },
      { tag: join(dir, 'sub'), path: join(dir, 'sub', 'e'), change: 'IN_CLOSE_WRITE' },
    ]);
  });
});
