import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authenticate, type EauthConfig, osGroups } from './eauth.js';
import { fileAuthenticate, fileEauthOptions } from './eauth-file.js';

const dir = mkdtempSync(join(tmpdir(), 'netapi-eauth-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

function recorder() {
  const lines: string[] = [];
  return {
    lines,
    log: {
      warn: (_o: object, m: string) => lines.push(m),
      error: (_o: object, m: string) => lines.push(m),
    },
  };
}

const groupFiles = {
  group: file('group', 'root:x:0:\nops:x:100:alice,bob\nweb:x:101:carol\ndev:x:102:\n'),
  passwd: file('passwd', 'alice:x:1000:102::/home/alice:/bin/sh\n'),
};

describe('file eauth: text files', () => {
  const plain = file('plain.txt', 'saltdev:saltdev\ndean:goneFishing\n');
  it('plaintext passwords, default separator and fields', async () => {
    const { log } = recorder();
    expect(await fileAuthenticate({ '^filename': plain }, 'saltdev', 'saltdev', log)).toBe(true);
    expect(await fileAuthenticate({ '^filename': plain }, 'saltdev', 'wrong', log)).toBe(false);
    expect(await fileAuthenticate({ '^filename': plain }, 'nobody', 'saltdev', log)).toBe(false);
  });
  it('hashed passwords in custom fields (Salt legacy format)', async () => {
    const legacy = file(
      'legacy.txt',
      '46|trey|0d5f52c2f5ad2ab7e8e2ce65bb4e2bfdf7ff3cb8cdc0a8a6d1b9ff8b2fbd3c43\n',
    );
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update('s3cret').digest('hex');
    writeFileSync(legacy, `46|trey|${hash}\n555|mike|abc\n`);
    const cfg = {
      '^filename': legacy,
      '^hashtype': 'sha256',
      '^field_separator': '|',
      '^username_field': 2,
      '^password_field': 3,
    };
    const { log } = recorder();
    expect(await fileAuthenticate(cfg, 'trey', 's3cret', log)).toBe(true);
    expect(await fileAuthenticate(cfg, 'trey', 'nope', log)).toBe(false);
  });
  it('denies with a logged reason on every misconfiguration', async () => {
    const r = recorder();
    expect(await fileAuthenticate({}, 'u', 'p', r.log)).toBe(false);
    expect(await fileAuthenticate({ '^filename': join(dir, 'missing') }, 'u', 'p', r.log)).toBe(false);
    expect(await fileAuthenticate({ '^filename': plain, '^hashtype': 'bogus' }, 'saltdev', 'x', r.log)).toBe(
      false,
    );
    expect(
      await fileAuthenticate({ '^filename': plain, '^filetype': 'nope' }, 'saltdev', 'saltdev', r.log),
    ).toBe(false);
    expect(
      await fileAuthenticate({ '^filename': plain, '^password_field': 9 }, 'saltdev', 'saltdev', r.log),
    ).toBe(false);
    expect(r.lines.length).toBe(5);
  });
  it('reads the ^ options with Salt defaults', () => {
    expect(fileEauthOptions({ '^filename': '/x', user: ['.*'] })).toEqual({
      filename: '/x',
      filetype: 'text',
      hashtype: 'plaintext',
      field_separator: ':',
      username_field: 1,
      password_field: 2,
    });
  });
});

describe('file eauth: htpasswd and htdigest', () => {
  const ht = file(
    'htpasswd',
    'apr:$apr1$abcdefgh$7VRUfALhFkfHsMEYWHm5y1\nsha:{SHA}6f63LxI55SXpZXCxAyT06FpcBGk=\nbc:$2y$05$abcdefghijklmnopqrstuuJ7b2bq3cqm0Xh5c9bQoU0kX7bFzJu6\n',
  );
  it('verifies apr1 and {SHA}; refuses bcrypt with a reason', async () => {
    const r = recorder();
    const cfg = { '^filename': ht, '^filetype': 'htpasswd' };
    expect(await fileAuthenticate(cfg, 'apr', 'saltdev', r.log)).toBe(true);
    expect(await fileAuthenticate(cfg, 'apr', 'x', r.log)).toBe(false);
    expect(await fileAuthenticate(cfg, 'sha', 'saltdev', r.log)).toBe(true);
    expect(await fileAuthenticate(cfg, 'bc', 'saltdev', r.log)).toBe(false);
    expect(r.lines.join()).toContain('bcrypt');
  });
  it('htdigest needs a realm', async () => {
    const { createHash } = await import('node:crypto');
    const h = createHash('md5').update('cory:Realm:pw').digest('hex');
    const hd = file('htdigest', `cory:Realm:${h}\n`);
    const r = recorder();
    expect(
      await fileAuthenticate(
        { '^filename': hd, '^filetype': 'htdigest', '^realm': 'Realm' },
        'cory',
        'pw',
        r.log,
      ),
    ).toBe(true);
    expect(
      await fileAuthenticate(
        { '^filename': hd, '^filetype': 'htdigest', '^realm': 'Other' },
        'cory',
        'pw',
        r.log,
      ),
    ).toBe(false);
    expect(await fileAuthenticate({ '^filename': hd, '^filetype': 'htdigest' }, 'cory', 'pw', r.log)).toBe(
      false,
    );
  });
});

describe('authenticate', () => {
  const users = file('users.txt', 'saltdev:saltdev\nalice:pw\nbob:pw\nzed:pw\n');
  const config: EauthConfig = {
    external_auth: {
      file: {
        '^filename': users,
        saltdev: ['.*', '@runner'],
        'ops%': ['@wheel'],
        'dev%': ['test.*'],
      },
      sharedsecret: { 'svc*': ['test.ping'] },
    },
    sharedsecret: 'topsecret',
  };
  it('returns the auth list of a listed user', async () => {
    const { log } = recorder();
    const r = await authenticate(config, 'file', 'saltdev', 'saltdev', { log, groupFiles });
    expect(r).toEqual({ ok: true, user: 'saltdev', eauth: 'file', groups: [], authList: ['.*', '@runner'] });
  });
  it('uses primary and supplementary groups', async () => {
    const { log } = recorder();
    const r = await authenticate(config, 'file', 'alice', 'pw', { log, groupFiles });
    expect(r.ok && r.groups.sort()).toEqual(['dev', 'ops']);
    expect(r.ok && r.authList).toEqual(['@wheel', 'test.*']);
  });
  it('refuses a right password for a user nobody listed', async () => {
    const { log } = recorder();
    const r = await authenticate(config, 'file', 'zed', 'pw', { log, groupFiles });
    expect(r.ok).toBe(false);
  });
  it('refuses bad input, unknown or unconfigured back ends', async () => {
    const { log } = recorder();
    for (const [e, u, p] of [
      ['file', 'saltdev', 'wrong'],
      ['nope', 'saltdev', 'saltdev'],
      [undefined, 'saltdev', 'saltdev'],
      ['file', 42, 'saltdev'],
      ['file', 'saltdev', ['saltdev']],
    ] as const) {
      expect((await authenticate(config, e, u, p, { log, groupFiles })).ok).toBe(false);
    }
  });
  it('pam without pamtester denies with a clear message', async () => {
    const r = recorder();
    const res = await authenticate(
      { external_auth: { pam: { u: ['.*'] } }, extra: { 'auth.pam.pamtester': join(dir, 'no-pamtester') } },
      'pam',
      'u',
      'p',
      { log: r.log, groupFiles },
    );
    expect(res.ok).toBe(false);
    expect(r.lines.join()).toContain('Debian package pamtester');
  });
  it('sharedsecret: the password is the master secret', async () => {
    const { log } = recorder();
    expect((await authenticate(config, 'sharedsecret', 'svc1', 'topsecret', { log, groupFiles })).ok).toBe(
      true,
    );
    expect((await authenticate(config, 'sharedsecret', 'svc1', 'nope', { log, groupFiles })).ok).toBe(false);
    expect(
      (await authenticate({ ...config, sharedsecret: null }, 'sharedsecret', 'svc1', '', { log, groupFiles }))
        .ok,
    ).toBe(false);
  });
  it('osGroups of an unknown user is empty', async () => {
    expect(await osGroups('nobody-here', groupFiles)).toEqual([]);
    expect(await osGroups('x', { group: join(dir, 'none'), passwd: join(dir, 'none') })).toEqual([]);
  });
});
