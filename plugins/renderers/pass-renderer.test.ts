// The pass renderer against the real `pass` program, with a throwaway GNUPGHOME and store.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gpgKey, killGpgAgent } from '../../test/support/gpg-key.js';
import { renderPipeline } from './pipeline.js';
import { NO_SALT_FUNCTIONS } from './salt-functions.js';
import type { RenderContext } from './types.js';

let dir: string;
let gnupghome: string;
let store: string;
const ctx = (opts: Record<string, unknown>): RenderContext => ({
  grains: {},
  pillar: {},
  opts: { pass_dir: store, pass_gnupghome: gnupghome, ...opts },
  salt: NO_SALT_FUNCTIONS,
  saltenv: 'base',
});
const render = (sls: string, opts: Record<string, unknown> = {}) =>
  renderPipeline(sls, { path: 'secret.sls', context: ctx(opts) });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-pass-'));
  gnupghome = join(dir, 'gnupg');
  store = join(dir, 'store');
  gpgKey(gnupghome, 'pass@example.invalid');
  const env = { ...process.env, GNUPGHOME: gnupghome, PASSWORD_STORE_DIR: store };
  execFileSync('pass', ['init', 'pass@example.invalid'], { env, stdio: 'ignore' });
  execFileSync('pass', ['insert', '-m', 'app/db'], {
    env,
    input: 'secret-one\n',
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  execFileSync('pass', ['insert', '-m', 'app/multi'], {
    env,
    input: 'multi\nline two\n\n',
    stdio: ['pipe', 'ignore', 'ignore'],
  });
}, 60_000);
afterAll(async () => {
  killGpgAgent(gnupghome);
  await rm(dir, { recursive: true, force: true });
});

// Expected values: Salt 3006.18's pass renderer (slsutil.renderer / pillar.items) on the same store.
describe('pass renderer', () => {
  it('replaces every string at any depth by its secret; what pass cannot show stays as it was', async () => {
    const out = await render(
      "#!yaml|pass\np_a: app/db\np_b: app/multi\np_c: nope/missing\np_d: 5\np_e: [app/db, ' app/db ']\np_f:\n  g: app/multi\n",
    );
    expect(out).toEqual({
      p_a: 'secret-one',
      p_b: 'multi\nline two',
      p_c: 'nope/missing',
      p_d: 5,
      p_e: ['secret-one', 'secret-one'],
      p_f: { g: 'multi\nline two' },
    });
  });

  it('with pass_variable_prefix looks up only prefixed strings; pass_strict_fetch fails on a missing one', async () => {
    const opts = { pass_variable_prefix: 'pass:', pass_strict_fetch: true };
    expect(
      await render("#!yaml|pass\na: pass:app/db\nb: app/db\nc: ['pass: app/multi ', 4]\n", opts),
    ).toEqual({
      a: 'secret-one',
      b: 'app/db',
      c: ['multi\nline two', 4],
    });
    await expect(render('#!yaml|pass\na: pass:nope/missing\n', opts)).rejects.toMatchObject({
      code: 'SALT_ERR_RENDER_SECRET',
      message: expect.stringContaining(
        "Could not fetch secret 'nope/missing' from the password store: Error: nope/missing is not in the password store.",
      ),
    });
    await expect(render('#!yaml|pass\na: x\n', { pass_strict_fetch: true })).rejects.toThrow(
      "The 'pass_strict_fetch' option requires 'pass_variable_prefix' option enabled",
    );
  });
});
