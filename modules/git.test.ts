import { describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { memoryLogger } from './_fake-ctx.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import gitMod from './git.js';

// https credentials go to git through its environment: a failing ls-remote against a closed
// local port must name neither the password in its error nor in any log line.
describe.skipIf(!which('git'))('git https credentials', () => {
  it('keeps https_pass out of errors and logs', async () => {
    const log = memoryLogger();
    const ctx = moduleCtx([cmdMod, gitMod], { log });
    const secret = 'tsalt-sekret-9f3';
    const err = await ctx
      .call('git.ls_remote', [], {
        remote: 'https://127.0.0.1:9/r.git',
        https_user: 'bob',
        https_pass: secret,
      })
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(err?.message).toMatch(/^Command 'git ls-remote https:\/\/127\.0\.0\.1:9\/r\.git' failed: /);
    expect(err?.message).not.toContain(secret);
    expect(JSON.stringify(log.lines)).not.toContain(secret);
  });

  it('refuses basic auth over plain http as Salt does', async () => {
    const ctx = moduleCtx([cmdMod, gitMod]);
    await expect(
      ctx.call('git.remote_refs', ['http://127.0.0.1:9/r.git'], { https_user: 'bob', https_pass: 'x' }),
    ).rejects.toThrow('Basic Auth only supported for HTTPS');
  });
});
