// pkg_resource, pam.read_file, pkg.list_repo_pkgs and pkg.services_need_restart, state.pkg (a
// tarball made here the way salt-ssh packs one) and highstate_doc through a real masterless
// salt-call. Expected answers are Salt 3006.18's for the same calls (/tmp/pkgx20/cmp.mjs).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { localCaller } from '../support/local-call.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-pkgx-'));
const call = localCaller(root, 'pkgx');
mkdirSync(join(root, 'srv'), { recursive: true });
afterAll(() => rmSync(root, { recursive: true, force: true }));

const hasApt = which('apt-cache') !== null && which('dpkg-query') !== null;

describe('pkg_resource through salt-call', () => {
  it('parses targets, normalizing names through pkg.normalize_name', async () => {
    expect((await call('pkg_resource.parse_targets', 'vim,curl:amd64')).local).toEqual([
      { vim: null, curl: null },
      'repository',
    ]);
    expect(
      (await call('pkg_resource.parse_targets', 'pkgs=["vim", {"curl": "7.8"}, {"bash:amd64": 5}]')).local,
    ).toEqual([{ vim: null, curl: '7.8', bash: '5' }, 'repository']);
    expect((await call('pkg_resource.parse_targets', 'sources=[{"b": "/x.deb"}]')).local).toEqual([
      ['/x.deb'],
      'file',
    ]);
    expect((await call('pkg_resource.parse_targets', 'vim', 'advisory_ids=[]')).local).toEqual([
      ['vim'],
      'advisory',
    ]);
    const dup = await call('pkg_resource.parse_targets', 'pkgs=["vim", "vim"]');
    expect(dup.code).toBe(1);
    expect(dup.output).toContain(
      "Passed invalid arguments: You are passing a list of packages that contains duplicated packages names: ['vim', 'vim'].",
    );
    expect(
      (await call('pkg_resource.pack_sources', '[{"foo:i386": "salt://f.deb"}, {"bar:amd64": "/b.deb"}]'))
        .local,
    ).toEqual({
      'foo:i386': 'salt://f.deb',
      bar: '/b.deb',
    });
    expect((await call('pkg_resource.pack_sources', '[{"a": 1, "b": 2}]')).local).toEqual({});
  });

  it("compares versions as Salt's LooseVersion, after the CLI's YAML reading of the arguments", async () => {
    // 1.10 reads as the float 1.1; '>' alone as YAML's folded-scalar marker, an empty operator
    expect((await call('pkg_resource.version_compare', '1.2', '<', '1.10')).local).toBe(false);
    expect((await call('pkg_resource.version_compare', "'1.2'", "'<'", "'1.10'")).local).toBe(true);
    expect((await call('pkg_resource.version_compare', '1.0a', "'>'", '1.0')).local).toBe(true);
    expect((await call('pkg_resource.version_compare', '2.0-rc1', '<', '2.0')).local).toBe(false);
    expect((await call('pkg_resource.version_compare', '1.0', '=>', '1.0')).local).toBe(false);
  });

  it('the in-place helpers return None; the rest pass through or format', async () => {
    expect((await call('pkg_resource.stringify', '{"vim": ["7.1", "7.2"]}')).local).toBeNull();
    const bad = await call('pkg_resource.stringify', '{"vim": 7.127}');
    expect(bad.output).toContain('Passed invalid arguments: can only join an iterable.');
    expect((await call('pkg_resource.version_clean', '1:2.3-4')).local).toBe('1:2.3-4');
    expect((await call('pkg_resource.check_extra_requirements', 'vim', '1.0')).local).toBe(true);
    expect((await call('pkg_resource.format_version', '1', '2.3', '4')).local).toBe('1:2.3-4');
    expect(
      (
        await call(
          'pkg_resource.format_pkg_list',
          '{"vim:i386": [{"version": "2", "arch": "i386", "epoch": "1"}]}',
          'False',
          '["epoch"]',
        )
      ).local,
    ).toEqual({ vim: [{ epoch: '1', version: '2', arch: 'i386' }] });
  });

  it.skipIf(!hasApt)('version reads the installed list (one name: a string)', async () => {
    // dpkg-query -W prints `bash<TAB><version>`
    const bash = execFileSync('dpkg-query', ['-W', 'bash'], { encoding: 'utf8' }).split('\t')[1]?.trim();
    expect((await call('pkg_resource.version', 'bash')).local).toBe(bash);
    expect((await call('pkg_resource.version', 'bash', 'tsalt-no-such-pkg')).local).toEqual({
      bash,
      'tsalt-no-such-pkg': '',
    });
  });
});

describe.skipIf(!hasApt)('pkg.list_repo_pkgs and pkg.services_need_restart', () => {
  it('lists every version apt-cache knows of the named packages', async () => {
    const show = execFileSync('apt-cache', ['show', 'bash'], { encoding: 'utf8' });
    const versions = [...show.matchAll(/^Version: (.+)$/gm)].map((m) => m[1]);
    expect((await call('pkg.list_repo_pkgs', 'bash', 'tsalt-no-such-pkg')).local).toEqual({ bash: versions });
    expect((await call('pkg.list_repo_pkgs', 'tsalt-no-such-pkg')).local).toEqual({});
  });

  it.skipIf(!which('checkrestart'))(
    'lists the services checkrestart names (none in a fresh container)',
    async () => {
      const r = await call('pkg.services_need_restart');
      expect(r.code).toBe(0);
      expect(Array.isArray(r.local)).toBe(true);
    },
  );
});

describe('pam.read_file', () => {
  it("parses a PAM file, and fails on an @include line as Salt's parser does", async () => {
    const file = join(root, 'pam-svc');
    writeFileSync(file, '#%PAM-1.0\naccount [success=1 default=ignore] pam_succeed_if.so uid < 1000\n');
    expect((await call('pam.read_file', file)).local).toEqual([
      {
        interface: 'account',
        control_flag: 'success=1 default=ignore',
        module: 'pam_succeed_if.so',
        arguments: ['uid', '<', '1000'],
      },
    ]);
    expect((await call('pam.read_file', join(root, 'none'))).local).toBe(false);
    writeFileSync(file, 'auth required pam_unix.so\n@include common-auth\n');
    const r = await call('pam.read_file', file);
    expect(r.code).toBe(1);
    expect(r.output).toContain('IndexError: list index out of range');
  });
});

describe('state.pkg', () => {
  const out = join(root, 'out');
  /** A tarball as salt-ssh packs one: lowstate.json, pillar.json and a folder per saltenv. */
  function tarball(name: string, lowstate: unknown, pillar?: unknown): { path: string; md5: string } {
    const dir = join(root, `pkg-${name}`);
    mkdirSync(join(dir, 'base'), { recursive: true });
    writeFileSync(join(dir, 'base', 'hello.txt'), 'hello from the package\n');
    writeFileSync(join(dir, 'base', 'tpl.txt'), 'pillar says {{ pillar.get("greeting", "none") }}\n');
    writeFileSync(join(dir, 'lowstate.json'), JSON.stringify(lowstate));
    const members = ['lowstate.json', 'base'];
    if (pillar) {
      writeFileSync(join(dir, 'pillar.json'), JSON.stringify(pillar));
      members.push('pillar.json');
    }
    const path = join(root, `${name}.tgz`);
    execFileSync('tar', ['-czf', path, '-C', dir, ...members]);
    return { path, md5: createHash('md5').update(readFileSync(path)).digest('hex') };
  }
  const chunk = (id: string, more: Record<string, unknown>) => ({
    __id__: id,
    __sls__: 'demo',
    __env__: 'base',
    name: id,
    ...more,
  });
  const low = [
    chunk(join(out, 'hello'), {
      state: 'file',
      fun: 'managed',
      source: 'salt://hello.txt',
      makedirs: true,
      order: 1,
    }),
    chunk(join(out, 'tpl'), {
      state: 'file',
      fun: 'managed',
      source: 'salt://tpl.txt',
      template: 'jinja',
      order: 2,
    }),
  ];

  it("runs the chunks with the tarball's files and pillar, after checking its hash", async () => {
    const { path, md5 } = tarball('good', low, { greeting: 'hi there' });
    expect((await call('state.pkg', path, 'deadbeef', 'md5')).local).toEqual({});
    expect(existsSync(out)).toBe(false);
    const r = await call('state.pkg', path, md5, 'md5');
    expect(r.code).toBe(0);
    const ret = r.local as Record<string, { result: boolean; __run_num__: number }>;
    expect(Object.values(ret).map((x) => [x.result, x.__run_num__])).toEqual([
      [true, 0],
      [true, 1],
    ]);
    expect(readFileSync(join(out, 'hello'), 'utf8')).toBe('hello from the package\n');
    expect(readFileSync(join(out, 'tpl'), 'utf8')).toBe('pillar says hi there\n');
    expect((await call('state.pkg', join(root, 'none.tgz'), md5, 'md5')).local).toEqual({});
    const badHash = await call('state.pkg', path, md5, 'nosuchhash');
    expect(badHash.output).toContain('ValueError: Invalid hash type: nosuchhash');
  });

  it('answers a lowstate of errors as it is, and retcode 2 when a state fails', async () => {
    const errs = tarball('errs', ['Rendering SLS failed']);
    expect((await call('state.pkg', errs.path, errs.md5, 'md5')).local).toEqual(['Rendering SLS failed']);
    const fail = tarball('fail', [chunk('bad', { state: 'test', fun: 'fail_without_changes', order: 1 })]);
    const r = await call('--retcode-passthrough', 'state.pkg', fail.path, fail.md5, 'md5');
    expect(r.code).toBe(2);
  });
});

describe('highstate_doc', () => {
  it('renders the template when the filters leave no state, and fails as Salt 3006 does when one is left', async () => {
    writeFileSync(join(root, 'srv', 'top.sls'), "base:\n  '*':\n    - doc\n");
    writeFileSync(
      join(root, 'srv', 'doc.sls'),
      'doc note:\n  highstate_doc.note:\n    - contents: hello\nhidden!doc_skip:\n  test.nop\n',
    );
    expect((await call('highstate_doc.process_lowstates', 'filter_id_regex=[".*"]')).local).toEqual([]);
    const text = await call(
      'highstate_doc.render',
      'filter_id_regex=[".*"]',
      'jinja_template_text=Salt {{ lowstates|length }} {{ config.max_render_file_size }}',
      'replace_text_regex={"S(a)lt": "X\\\\1"}',
    );
    expect(text.local).toBe('Xa 0 10000');
    const basic = await call('highstate_doc.markdown_basic_jinja_template');
    expect(basic.local).toMatch(/^\n\{% for s in lowstates %\}\n`\{\{s.id_full\}\}`\n/);
    const r = await call('highstate_doc.render');
    expect(r.code).toBe(1);
    expect(r.output).toContain("AttributeError: 'str' object has no attribute 'decode'");
  });

  it('highstate_doc.note changes nothing and keeps short contents in its comment', async () => {
    const r = (
      await call('state.single', 'highstate_doc.note', 'n1', 'contents=some text', 'source=salt://x.md')
    ).local as Record<string, { result: boolean; comment: string; changes: unknown }>;
    expect(Object.values(r)[0]).toMatchObject({
      result: true,
      comment: 'include file: salt://x.md\nsome text',
      changes: {},
    });
  });
});
