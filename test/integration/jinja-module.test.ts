// jinja.load_map / import_yaml / import_json through a real masterless salt-call: a formula's
// map.jinja built the way saltstack-formulas write them (grains.filter_by, pillar.get with a
// merge, import_yaml of defaults), and Salt's failures as clean errors
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tools/local-cluster.js';
import { localCaller } from '../support/local-call.js';

describe('jinja execution module', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-jinja-'));
  const srv = join(root, 'srv');
  const call = localCaller(root, 'j1');

  beforeAll(() => {
    mkdirSync(join(srv, 'acme'), { recursive: true });
    mkdirSync(join(root, 'pillar'), { recursive: true });
    writeFileSync(join(srv, 'acme/defaults.yaml'), 'acme:\n  port: 8080\n  pkgs: [acme-server]\n');
    writeFileSync(
      join(srv, 'acme/map.jinja'),
      `{% import_yaml tpldir ~ "/defaults.yaml" as defaults %}
{% set os = salt['grains.filter_by']({'Debian': {'service': 'acme-deb'}}, default='Debian') %}
{% do defaults.acme.update(os) %}
{% set acme = salt['pillar.get']('acme', default=defaults.acme, merge=True) %}
`,
    );
    writeFileSync(join(srv, 'data.json'), '{"z": 1, "a": [1, 2]}');
    writeFileSync(join(root, 'pillar/top.sls'), "base:\n  '*':\n    - acme\n");
    writeFileSync(join(root, 'pillar/acme.sls'), 'acme:\n  port: 9090\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('load_map renders the map with grains, pillar and imports, in the map order', async () => {
    const r = await call('jinja.load_map', 'acme/map.jinja', 'acme');
    expect(r.code).toBe(0);
    expect(r.local).toEqual({ port: 9090, pkgs: ['acme-server'], service: 'acme-deb' });
    expect(Object.keys(r.local as object)).toEqual(['port', 'pkgs', 'service']);
  });

  it('import_yaml and import_json return the file data, keys in file order', async () => {
    expect((await call('jinja.import_yaml', 'acme/defaults.yaml')).local).toEqual({
      acme: { port: 8080, pkgs: ['acme-server'] },
    });
    const json = await call('jinja.import_json', 'data.json');
    expect(Object.keys(json.local as object)).toEqual(['z', 'a']);
  });

  it('a missing template, a name the map does not set and a non-identifier fail cleanly', async () => {
    const missing = await call('jinja.load_map', 'acme/nothere.jinja', 'acme');
    expect(missing.code).toBe(1);
    expect(String(missing.local)).toContain("template 'acme/nothere.jinja' not found");
    const unset = await call('jinja.load_map', 'acme/map.jinja', 'nosuch');
    expect(unset.code).toBe(1);
    expect(String(unset.local)).toContain("does not export the requested name 'nosuch'");
    const r = await runCli(
      'salt-call',
      ['-c', call.etc, '--local', 'jinja.load_map', 'acme/map.jinja', 'x}}{{7*7'],
      60_000,
    );
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('value must be the name of a variable the map sets');
  });
});
