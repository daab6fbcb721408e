/**
 * The `ret` module over real returners: the local_cache job folder of a minion, a returner
 * function Salt's local_cache lacks, a missing returner (Salt's KeyError), as Salt 3006.18
 * answers them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import ret from './ret.js';

const cachedir = mkdtempSync(join(tmpdir(), 'tsalt-t-ret-'));
afterAll(() => rmSync(cachedir, { recursive: true, force: true }));
const ctx = () =>
  fakeCtx({
    opts: {
      cachedir,
      extension_modules: join(cachedir, 'extmods'),
      returner_dirs: [],
      extensions: [],
      hash_type: 'sha256',
    },
  });

describe('ret', () => {
  it("fails as Salt's loader lookup does for a missing returner or function", async () => {
    await expect(invoke(ret, 'get_jids', ['nosuch'], ctx())).rejects.toMatchObject({
      name: 'KeyError',
      message: "'nosuch.get_jids'",
    });
    await expect(invoke(ret, 'get_fun', ['local_cache', 'test.ping'], ctx())).rejects.toMatchObject({
      name: 'KeyError',
      message: "'local_cache.get_fun'",
    });
  });

  it("local_cache: get_jids without a jobs folder fails as Salt's listdir does; an unknown jid is {}", async () => {
    await expect(invoke(ret, 'get_jids', ['local_cache'], ctx())).rejects.toMatchObject({
      name: 'FileNotFoundError',
      message: `[Errno 2] No such file or directory: '${join(cachedir, 'jobs')}'`,
    });
    expect((await invoke(ret, 'get_jid', ['local_cache', '20261129000000000000'], ctx())).value).toEqual({});
    mkdirSync(join(cachedir, 'jobs'), { recursive: true });
    writeFileSync(join(cachedir, 'jobs', '.keep'), '');
    expect((await invoke(ret, 'get_jids', ['local_cache'], ctx())).value).toEqual({});
  });
});
