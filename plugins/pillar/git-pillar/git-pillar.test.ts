/**
 * git_pillar over real git repositories (made here with `git init`, served as file:// URLs):
 * each case's expected pillar is what Salt 3006.18's git_pillar (GitPython provider) returned
 * for the same repositories and `ext_pillar` entry with `salt-call --local pillar.items`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CompileEnv, compilePillar, type PillarRequest } from '../compile.js';
import { BUILTIN_EXT_PILLARS } from '../ext/builtins.js';
import { pillarOptions } from '../options.js';
import { updateGitPillar } from './update.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-gitpillar-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
};
const run = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: gitEnv, stdio: 'pipe' });

function commit(dir: string, files: Record<string, string>, msg = 'c'): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  run(dir, 'add', '-A');
  run(dir, 'commit', '-qm', msg);
}

function repo(name: string): string {
  const dir = join(top, name);
  mkdirSync(dir, { recursive: true });
  run(dir, 'init', '-q', '-b', 'master');
  return dir;
}

// `main`: pillar/ on master and dev (each with its own top file), a top file at the root, tag v1
const main = repo('main');
commit(main, {
  'pillar/top.sls': "base:\n  '*':\n    - common\n  'web*':\n    - web.server.nginx\n",
  'pillar/common.sls': 'common:\n  from: master\n  id: {{ grains["id"] }}\nlist: [1]\n',
  'top.sls': "base:\n  '*':\n    - rootlevel\n",
  'rootlevel.sls': 'rootlevel: yes\n',
});
run(main, 'checkout', '-qb', 'dev');
commit(main, {
  'pillar/top.sls': "dev:\n  '*':\n    - common\n    - devonly\n",
  'pillar/common.sls': 'common:\n  from: dev\n',
  'pillar/devonly.sls': 'devonly: true\n',
});
run(main, 'checkout', '-q', 'master');
run(main, 'tag', 'v1');
// a pull-request head outside refs/heads (only a refspec fetches it)
run(main, 'checkout', '-q', '--detach', 'master');
commit(main, { 'pillar/common.sls': 'common:\n  from: pr1\n' });
run(main, 'update-ref', 'refs/pull/1/head', 'HEAD');
run(main, 'checkout', '-q', 'master');
// `nginx`: SLS meant to be mounted at web/server
const nginx = repo('nginx');
commit(nginx, { 'nginx.sls': 'nginx: {port: 80}\n' });

const M = `file://${main}`;
const N = `file://${nginx}`;

const logged: string[] = [];
const log = {
  error: (o: Record<string, unknown>, m: string) => logged.push(`${m} ${JSON.stringify(o)}`),
  warn: (o: Record<string, unknown>, m: string) => logged.push(`${m} ${JSON.stringify(o)}`),
  debug: () => undefined,
};

let n = 0;
function env(git: unknown[], more: Record<string, unknown> = {}): CompileEnv {
  n += 1;
  const empty = join(top, 'empty');
  mkdirSync(empty, { recursive: true });
  return {
    options: pillarOptions({
      pillar_roots: { base: [empty] },
      ext_pillar: [{ git }],
      cachedir: join(top, `cache${n}`),
      ...more,
    }),
    extPillars: new Map(BUILTIN_EXT_PILLARS.map((d) => [d.name, d])),
    log,
  };
}

const req = (more: Partial<PillarRequest> = {}): PillarRequest => ({
  id: 'web1',
  grains: { id: 'web1' },
  saltenv: null,
  pillarenv: null,
  pillarOverride: {},
  extraMinionData: {},
  ...more,
});

const NGINX_MISSING =
  "Specified SLS 'web.server.nginx' in environment 'base' is not available on the salt master";
const MASTER = { common: { from: 'master', id: 'web1' }, list: [1] };
const DEV = { common: { from: 'dev' }, devonly: true };

describe('git_pillar: what Salt 3006 compiles from the same repositories', () => {
  it.each<[string, unknown[], Record<string, unknown>, Partial<PillarRequest>, unknown]>([
    [
      'mountpoint and a second branch, merged in order',
      [
        { [`master ${M}`]: [{ root: 'pillar' }] },
        { [`master ${N}`]: [{ mountpoint: 'web/server' }] },
        { [`dev ${M}`]: [{ root: 'pillar' }, { name: 'devrepo' }] },
      ],
      {},
      {},
      { common: { from: 'dev', id: 'web1' }, list: [1], nginx: { port: 80 }, devonly: true },
    ],
    ['no root: the top file at the top', [`master ${M}`], {}, {}, { rootlevel: true }],
    [
      '__env__ with no pillarenv: git_pillar_base',
      [{ [`__env__ ${M}`]: [{ root: 'pillar' }] }],
      {},
      {},
      { ...MASTER, _errors: [NGINX_MISSING] },
    ],
    [
      '__env__ with the pillarenv dev',
      [{ [`__env__ ${M}`]: [{ root: 'pillar' }] }],
      {},
      { pillarenv: 'dev' },
      DEV,
    ],
    [
      '__env__ with the saltenv dev',
      [{ [`__env__ ${M}`]: [{ root: 'pillar' }] }],
      {},
      { saltenv: 'dev' },
      DEV,
    ],
    [
      'env remaps the pillarenv (the top file must name it)',
      [{ [`dev ${M}`]: [{ root: 'pillar' }, { env: 'prod' }] }],
      {},
      {},
      {
        _errors: [
          "No matching pillar environment for environment 'dev' found",
          "No matching pillar environment for environment 'dev' found",
        ],
      },
    ],
    [
      'git_pillar_includes False: no overlay of the mounted remote',
      [{ [`master ${M}`]: [{ root: 'pillar' }] }, { [`master ${N}`]: [{ mountpoint: 'web/server' }] }],
      { git_pillar_includes: false },
      {},
      { ...MASTER, _errors: [NGINX_MISSING] },
    ],
    ['a tag is a pillarenv of its name', [{ [`v1 ${M}`]: [{ root: 'pillar' }] }], {}, {}, {}],
    ['a branch the remote lacks', [`nosuch ${M}`], {}, {}, {}],
    [
      'fallback for a missing pillarenv branch',
      [{ [`__env__ ${M}`]: [{ root: 'pillar' }, { fallback: 'master' }] }],
      {},
      { pillarenv: 'qa' },
      {},
    ],
    [
      'git_pillar_root',
      [`master ${M}`],
      { git_pillar_root: 'pillar' },
      {},
      { ...MASTER, _errors: [NGINX_MISSING] },
    ],
    [
      'the pillarenv leaves other remotes out',
      [{ [`master ${M}`]: [{ root: 'pillar' }] }, { [`dev ${M}`]: [{ root: 'pillar' }, { name: 'd2' }] }],
      {},
      { pillarenv: 'base' },
      { ...MASTER, _errors: [NGINX_MISSING] },
    ],
    [
      'a bare URL takes git_pillar_branch',
      [M],
      { git_pillar_branch: 'dev', git_pillar_root: 'pillar' },
      {},
      DEV,
    ],
    [
      'refspecs: a pull-request head fetched under refs/remotes/origin/ is a branch',
      [
        {
          [`pr/1 ${M}`]: [
            { root: 'pillar' },
            { env: 'base' },
            {
              refspecs: ['+refs/heads/*:refs/remotes/origin/*', '+refs/pull/*/head:refs/remotes/origin/pr/*'],
            },
          ],
        },
      ],
      {},
      {},
      { common: { from: 'pr1' }, _errors: [NGINX_MISSING] },
    ],
    [
      'git_pillar_refspecs as a comma-separated string',
      [{ [`pr/1 ${M}`]: [{ root: 'pillar' }, { env: 'base' }] }],
      { git_pillar_refspecs: '+refs/pull/*/head:refs/remotes/origin/pr/*, +refs/tags/*:refs/tags/*' },
      {},
      { common: { from: 'pr1' }, _errors: [NGINX_MISSING] },
    ],
    [
      'the default refspecs do not fetch pull-request heads',
      [{ [`pr/1 ${M}`]: [{ root: 'pillar' }, { env: 'base' }] }],
      {},
      {},
      {},
    ],
    ['a root the remote lacks', [{ [`master ${M}`]: [{ root: 'nope' }] }], {}, {}, {}],
    [
      'all_saltenvs',
      [{ [`__env__ ${M}`]: [{ root: 'pillar' }, { all_saltenvs: 'dev' }] }],
      {},
      { pillarenv: 'dev' },
      DEV,
    ],
  ])('%s', async (_name, git, more, request, expected) => {
    expect(await compilePillar(req(request), env(git, more))).toEqual(expected);
  });

  it.each([
    [
      'an unknown per-remote parameter',
      [{ [`master ${M}`]: [{ bogus: 1 }] }],
      /unknown per-remote option "bogus"/,
    ],
    [
      'base without __env__',
      [{ [`master ${M}`]: [{ base: 'dev' }] }],
      /base can only be specified if __env__/,
    ],
    ['two remotes in one cache folder', [`master ${M}`, `master ${M}`], /same cache folder/],
  ])('%s: Salt’s _errors entry, the reason in the log with its code', async (_name, git, reason) => {
    logged.length = 0;
    const p = await compilePillar(req(), env(git));
    expect(p).toEqual({ _errors: ['Failed to load ext_pillar git: Failed to load git_pillar'] });
    const line = logged.find((l) => l.includes('PILLAR_ERR_GIT_REMOTE'));
    expect(line).toMatch(reason);
  });
});

describe('git_pillar: fetching', () => {
  it('sees a new commit after git_pillar.update, not before', async () => {
    const r = repo('moving');
    commit(r, { 'top.sls': "base:\n  '*':\n    - v\n", 'v.sls': 'version: 1\n' });
    const e = env([`master file://${r}`]);
    expect(await compilePillar(req(), e)).toEqual({ version: 1 });
    commit(r, { 'v.sls': 'version: 2\n' });
    expect(await compilePillar(req(), e)).toEqual({ version: 1 });
    const opts = e.options.opts;
    expect(await updateGitPillar(opts, log)).toEqual({ [`master file://${r}`]: true });
    expect(await updateGitPillar(opts, log)).toEqual({ [`master file://${r}`]: null });
    expect(await compilePillar(req(), e)).toEqual({ version: 2 });
    expect(await updateGitPillar(opts, log, { branch: 'dev' })).toEqual({});
    expect(await updateGitPillar(opts, log, { repo: `file://${r}` })).toEqual({
      [`master file://${r}`]: null,
    });
  });

  it('an unreachable remote: logged with the password masked, the other remotes still compile', async () => {
    logged.length = 0;
    const bad = 'http://deploy:hunter2-secret@127.0.0.1:9/pillar.git';
    const e = env([
      { [`master ${bad}`]: [{ name: 'unreachable' }] },
      { [`master ${M}`]: [{ root: 'pillar' }] },
    ]);
    expect(await compilePillar(req(), e)).toEqual({ ...MASTER, _errors: [NGINX_MISSING] });
    const all = logged.join('\n');
    expect(all).toContain('PILLAR_ERR_GIT_REMOTE');
    expect(all).toContain('deploy:***@127.0.0.1');
    expect(all).not.toContain('hunter2');
    expect(await updateGitPillar(e.options.opts, log)).toMatchObject({
      'master http://deploy:***@127.0.0.1:9/pillar.git': false,
    });
    expect(logged.join('\n')).not.toContain('hunter2');
  });
});
