import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CompileEnv, compilePillar, type PillarRequest } from './compile.js';
import { BUILTIN_EXT_PILLARS } from './ext/builtins.js';
import { defineExtPillar, type ExtPillarDef } from './ext-kind.js';
import { pillarOptions } from './options.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-pillar-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(dir: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

const logged: string[] = [];
const log = {
  error: (o: Record<string, unknown>, m: string) => logged.push(`${m} ${JSON.stringify(o)}`),
  warn: (o: Record<string, unknown>, m: string) => logged.push(`${m} ${JSON.stringify(o)}`),
  debug: () => undefined,
};

const throwing = defineExtPillar({
  name: 'explodes',
  run() {
    throw new Error('database unreachable');
  },
});
const constant = defineExtPillar({
  name: 'constant',
  run: (ctx, args, kwargs) => ({ from_ext: { args: [...args], kwargs: { ...kwargs }, id: ctx.minionId } }),
});

function env(config: Record<string, unknown>, ext: ExtPillarDef[] = []): CompileEnv {
  return {
    options: pillarOptions(config),
    extPillars: new Map([...BUILTIN_EXT_PILLARS, throwing, constant, ...ext].map((d) => [d.name, d])),
    log,
  };
}

function req(
  id: string,
  grains: Record<string, unknown> = {},
  more: Partial<PillarRequest> = {},
): PillarRequest {
  return { id, grains, saltenv: null, pillarenv: null, pillarOverride: {}, extraMinionData: {}, ...more };
}

const base = tree(join(root, 'base'), {
  'top.sls': `base:
  '*':
    - common
  'web*':
    - match: glob
    - web
  'os:Debian':
    - match: grain
    - debian
  'G@os:Debian and not db*':
    - compound
  'db1,db2':
    - match: list
    - listed
  '^db\\d$':
    - match: pcre
    - pcre
  'dbs':
    - match: nodegroup
    - ng
  '127.0.0.0/8':
    - match: ipcidr
    - ip
  'role:frontend':
    - match: pillar
    - bypillar
  'lost*':
    - gone
  'quiet*':
    - ignore_missing: True
    - gone_quietly
  'bad*':
    - broken
  'inc*':
    - includer
  'self*':
    - selfish
  'tpl*':
    - templated
`,
  'templated.sls': `{% set os = grains.get('os', 'unknown') %}
templated:
  os: {{ os | lower }}
  id: {{ grains['id'] }}
  from_default: {{ default_word | default('none') }}
  tplfile: {{ tplfile }}
`,
  'common.sls': 'common: {a: 1, flag: yes, mode: 0644}\n',
  'web.sls': 'role_web: true\n',
  'debian.sls': 'os_family_pillar: true\n',
  'compound.sls': 'compound: true\n',
  'listed.sls': 'listed: true\n',
  'pcre.sls': 'pcre: true\n',
  'ng.sls': 'nodegroup: true\n',
  'ip.sls': 'ipcidr: true\n',
  'bypillar.sls': 'by_pillar: true\n',
  'broken.sls': 'ok: 1\nbad: [unclosed\nsecret: hunter2\n',
  'includer.sls': `include:
  - .sub.one
  - sub.two:
      key: nested:here
  - missing_one
  - sub.dflt:
      defaults:
        word: hello
inc_top: mine
shared: from_includer
`,
  'sub/one.sls': 'shared: from_one\none: 1\n',
  'sub/two/init.sls': 'two: 2\n',
  'sub/dflt.sls': 'dflt: {{ word }}\n',
  'selfish.sls': 'include:\n  - selfish\nself: ok\n',
});
const dev = tree(join(root, 'dev'), {
  'top.sls': "dev:\n  '*':\n    - devonly\n",
  'devonly.sls': 'devonly: true\ncommon: {a: dev}\n',
});

const roots = { base: [base], dev: [dev] };
const nodegroups = { dbs: 'L@db1,db3' };

describe('compilePillar: top file matchers', () => {
  const e = env({ pillar_roots: { base: [base] }, nodegroups });
  it.each([
    ['glob', 'web1', {}, 'role_web'],
    ['grain', 'x1', { os: 'Debian' }, 'os_family_pillar'],
    ['compound', 'x1', { os: 'Debian' }, 'compound'],
    ['list', 'db2', {}, 'listed'],
    ['pcre', 'db7', {}, 'pcre'],
    ['nodegroup', 'db3', {}, 'nodegroup'],
    ['ipcidr', 'x1', { ipv4: ['127.0.0.1'] }, 'ipcidr'],
  ])('%s', async (_kind, id, grains, key) => {
    const p = await compilePillar(req(id, grains), e);
    expect(p[key]).toBe(true);
    expect(p.common).toEqual({ a: 1, flag: true, mode: 644 });
    // and a minion that does not match lacks it
    expect((await compilePillar(req('other'), e))[key]).toBeUndefined();
  });

  it('compound does not match when its "not" part does', async () => {
    expect((await compilePillar(req('db1', { os: 'Debian' }), e)).compound).toBeUndefined();
  });

  it('match: pillar sees the external pillar with ext_pillar_first', async () => {
    const cfg = { pillar_roots: { base: [base] }, ext_pillar: [{ cmd_yaml: 'echo "role: frontend"' }] };
    expect((await compilePillar(req('x'), env(cfg))).by_pillar).toBeUndefined();
    const p = await compilePillar(req('x'), env({ ...cfg, ext_pillar_first: true }));
    expect(p.by_pillar).toBe(true);
    expect(p.role).toBe('frontend');
  });
});

describe('compilePillar: templates', () => {
  it('jinja|yaml by default, with the grains and tplfile', async () => {
    const p = await compilePillar(
      req('tpl1', { os: 'Debian', id: 'tpl1' }),
      env({ pillar_roots: { base: [base] } }),
    );
    expect(p.templated).toEqual({ os: 'debian', id: 'tpl1', from_default: 'none', tplfile: 'templated.sls' });
  });
});

describe('compilePillar: includes, errors', () => {
  it('include: relative names, key nesting, and the including SLS wins', async () => {
    logged.length = 0;
    const p = await compilePillar(req('inc1'), env({ pillar_roots: { base: [base] } }));
    expect(p.inc_top).toBe('mine');
    expect(p.shared).toBe('from_includer');
    expect(p.one).toBe(1);
    expect(p.nested).toEqual({ here: { two: 2 } });
    expect(p.dflt).toBe('hello');
    expect(p._errors).toEqual([
      "Specified SLS 'missing_one' in environment 'base' is not available on the salt master",
    ]);
  });

  it('pillar_includes_override_sls: the included data wins', async () => {
    const p = await compilePillar(
      req('inc1'),
      env({ pillar_roots: { base: [base] }, pillar_includes_override_sls: true }),
    );
    expect(p.shared).toBe('from_one');
  });

  it('an SLS that includes itself is rendered once', async () => {
    const p = await compilePillar(req('self1'), env({ pillar_roots: { base: [base] } }));
    expect(p.self).toBe('ok');
    expect(p._errors).toBeUndefined();
  });

  it('a YAML error: the safe _errors entry, and the file and line in the log (not the text)', async () => {
    logged.length = 0;
    const p = await compilePillar(req('bad1'), env({ pillar_roots: { base: [base] } }));
    expect(p._errors).toEqual(["Rendering SLS 'broken' failed. Please see master log for details."]);
    expect(p.ok).toBeUndefined();
    const line = logged.find((l) => l.includes("Rendering SLS 'broken' failed"));
    expect(line).toContain(join(base, 'broken.sls'));
    expect(line).toMatch(/line \d+, column \d+/);
    expect(logged.join('\n')).not.toContain('hunter2');
  });

  it('pillar_safe_render_error false: _errors names the file and line', async () => {
    logged.length = 0;
    const p = await compilePillar(
      req('bad1'),
      env({ pillar_roots: { base: [base] }, pillar_safe_render_error: false }),
    );
    const [err] = p._errors as string[];
    expect(err).toMatch(/^Rendering SLS 'broken' failed, render error:\n/);
    expect(err).toContain(`${join(base, 'broken.sls')}, line 3,`);
    // the offending line goes to the owner minion only; the master log keeps to file and line
    expect(err).toContain('3 | secret: hunter2');
    expect(logged.join('\n')).not.toContain('hunter2');
  });

  it('a missing SLS in the top is reported; under ignore_missing it is not', async () => {
    const e = env({ pillar_roots: { base: [base] } });
    expect((await compilePillar(req('lost1'), e))._errors).toEqual([
      "Specified SLS 'gone' in environment 'base' is not available on the salt master",
    ]);
    expect((await compilePillar(req('quiet1'), e))._errors).toBeUndefined();
  });
});

describe('compilePillar: environments', () => {
  it('every env is merged by default; pillarenv picks one', async () => {
    const e = env({ pillar_roots: roots });
    const all = await compilePillar(req('x'), e);
    expect(all.devonly).toBe(true);
    expect(all.common).toEqual({ a: 'dev', flag: true, mode: 644 });
    const onlyDev = await compilePillar(req('x', {}, { pillarenv: 'dev' }), e);
    expect(onlyDev).toEqual({ devonly: true, common: { a: 'dev' } });
    const masterDev = await compilePillar(req('x'), env({ pillar_roots: roots, pillarenv: 'dev' }));
    expect(masterDev.devonly).toBe(true);
    expect(masterDev.common).toEqual({ a: 'dev' });
  });

  it('pillarenv_from_saltenv: the saltenv picks the pillarenv', async () => {
    const e = env({ pillar_roots: roots, pillarenv_from_saltenv: true });
    expect(await compilePillar(req('x', {}, { saltenv: 'dev' }), e)).toEqual({
      devonly: true,
      common: { a: 'dev' },
    });
  });

  it("strategy none: only the saltenv's (else base's) top file", async () => {
    const e = env({ pillar_roots: roots, pillar_source_merging_strategy: 'none' });
    expect((await compilePillar(req('x'), e)).devonly).toBeUndefined();
    expect(await compilePillar(req('x', {}, { saltenv: 'dev' }), e)).toEqual({
      devonly: true,
      common: { a: 'dev' },
    });
  });

  it('pillar_override is merged last', async () => {
    const p = await compilePillar(
      req('x', {}, { pillarOverride: { common: { a: 'cli' } } }),
      env({ pillar_roots: { base: [base] } }),
    );
    expect(p.common).toEqual({ a: 'cli', flag: true, mode: 644 });
  });
});

describe('compilePillar: external pillars', () => {
  const empty = tree(join(root, 'empty'), { 'top.sls': '' });
  it('arguments as Salt passes them; a failing one is reported and the others still merge', async () => {
    const p = await compilePillar(
      req('m1'),
      env({
        pillar_roots: { base: [empty] },
        ext_pillar: [
          { constant: { a: 1 } },
          { explodes: 'x' },
          { cmd_json: 'echo \'{"json": "%s"}\'' },
          { cmd_yaml: 'echo "not: [yaml"' },
          { nosuch: 1 },
          { constant: ['p1', 'p2'] },
        ],
      }),
    );
    expect(p.json).toBe('m1');
    // the second run merges recursively onto the first (its kwargs stay)
    expect(p.from_ext).toEqual({ args: ['p1', 'p2'], kwargs: { a: 1 }, id: 'm1' });
    expect(p._errors).toEqual(['Failed to load ext_pillar explodes: database unreachable']);
  });

  it('a malformed ext_pillar option is reported', async () => {
    const p = await compilePillar(
      req('m1'),
      env({ pillar_roots: { base: [empty] }, ext_pillar: { cmd_yaml: 'x' } }),
    );
    expect(p._errors).toEqual(['The "ext_pillar" option is malformed']);
  });

  it('file_tree: hosts/<id> and the nodegroups the minion is in', async () => {
    const ft = tree(join(root, 'ft'), {
      'hosts/m1/db/password': 'pw-m1\n',
      'hosts/m2/db/password': 'pw-m2\n',
      'nodegroups/dbs/tier': 'database\n',
      'nodegroups/webs/tier': 'web\n',
    });
    const e = env({
      pillar_roots: { base: [empty] },
      nodegroups: { dbs: 'L@m1', webs: 'L@m2' },
      ext_pillar: [{ file_tree: { root_dir: ft, keep_newline: ['db/*'] } }],
    });
    expect(await compilePillar(req('m1'), e)).toEqual({ db: { password: 'pw-m1\n' }, tier: 'database' });
    expect(await compilePillar(req('m2'), e)).toEqual({ db: { password: 'pw-m2\n' }, tier: 'web' });
    expect(await compilePillar(req('../m1'), e)).toEqual({});
  });
  it("makes a render's salt functions only when a template asks for them", async () => {
    const asked: string[] = [];
    const functions = (r: { id: string }) => {
      asked.push(r.id);
      return { call: async () => 'from-salt', has: () => true };
    };
    // no pillar roots on disk (Salt's default /srv/pillar absent): nothing renders, so no
    // functions (a sign-in's start-up `_pillar` on such a master)
    const none = { ...env({ pillar_roots: { base: [join(root, 'absent')] } }), functions };
    expect(await compilePillar(req('m1'), none)).toEqual({});
    expect(asked).toEqual([]);
    const roots = tree(join(root, 'lazy'), {
      'top.sls': "base:\n  '*':\n    - uses\n",
      'uses.sls': "v: {{ salt['test.echo']('x') }}\n",
    });
    const some = { ...env({ pillar_roots: { base: [roots] } }), functions };
    expect(await compilePillar(req('m2'), some)).toEqual({ v: 'from-salt' });
    expect(new Set(asked)).toEqual(new Set(['m2']));
  });
});
