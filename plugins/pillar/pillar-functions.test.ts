import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { functionNames } from '../renderers/index.js';
import { compilePillar } from './compile.js';
import { pillarOptions } from './options.js';
import { masterPillarFunctions } from './pillar-functions.js';

const quiet = () => undefined;
const log = { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet };
const root = mkdtempSync(join(tmpdir(), 'tsalt-pillar-fns-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const req = (id: string, grains: Record<string, unknown> = {}) => ({
  id,
  grains: { id, ...grains },
  saltenv: null,
  pillarenv: null,
  pillarOverride: {},
  extraMinionData: {},
});

describe('salt[...] of pillar templates on the master', () => {
  it('finds the names a template shows', () => {
    const names = functionNames(
      "{{ salt['a.b']() }} {{ salt[\"c.d\"] }} {{ salt.e.f() }} {% if 'g.h' in salt %}{% endif %} {{ x.salt }}",
    );
    expect([...names].sort()).toEqual(['a.b', 'c.d', 'e.f', 'g.h']);
    expect(functionNames('no functions here').size).toBe(0);
  });

  it("answers `has` exactly for prepared names and runs with the minion's id and grains", async () => {
    const fns = masterPillarFunctions({ id: 'm', pillar_roots: { base: [root] } }, log);
    const salt = fns(req('web1', { os_family: 'RedHat' }), 'dev');
    await salt.prepare?.("{{ salt['test.ping'] }} {{ salt['nosuch.fn'] }}");
    expect(salt.has('test.ping')).toBe(true);
    expect(salt.has('nosuch.fn')).toBe(false);
    expect(await salt.call('config.get', ['id'], {})).toBe('web1');
    expect(await salt.call('config.get', ['pillarenv'], {})).toBe('dev');
    expect(await salt.call('grains.get', ['os_family'], {})).toBe('RedHat');
    expect(await salt.call('pillar.get', ['x', 'dflt'], {})).toBe('dflt');
    expect(await salt.call('pillar.items', [], {})).toEqual({});
    // the next compile is another minion's: nothing of web1's is left in its context
    expect(await fns(req('db1'), null).call('config.get', ['id'], {})).toBe('db1');
  });

  it('a failing call is a render error naming the function, the file and the line', async () => {
    writeFileSync(join(root, 'top.sls'), "base:\n  '*':\n    - ok\n    - bad\n");
    writeFileSync(
      join(root, 'ok.sls'),
      "fam: {{ salt['grains.filter_by']({'Debian': 'deb', 'RedHat': 'rh'}) }}\n",
    );
    writeFileSync(join(root, 'bad.sls'), "a: 1\nb: {{ salt['test.exception']('boom') }}\n");
    const config = { pillar_roots: { base: [root] }, pillar_safe_render_error: false };
    const pillar = await compilePillar(req('web1', { os_family: 'RedHat' }), {
      options: pillarOptions(config),
      extPillars: new Map(),
      log: { error: quiet, warn: quiet, debug: quiet },
      functions: masterPillarFunctions(config, log),
    });
    expect(pillar.fam).toBe('rh');
    const errors = pillar._errors as string[];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`${join(root, 'bad.sls')}, line 2`);
    expect(errors[0]).toContain("salt['test.exception'] failed: boom");
  });
});
