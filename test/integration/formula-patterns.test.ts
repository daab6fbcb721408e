/**
 * The patterns saltstack-formulas are built from, through a real master and minion: a map.jinja
 * that reads defaults with `import_yaml`, picks per-OS values with `grains.filter_by` and merges
 * the pillar with `defaults.merge`; a libtofs-style macro that lists `salt://` template candidates
 * (`| yaml` into the SLS); `salt.mod.fn(...)` attribute calls; strings YAML 1.1 would read as
 * booleans or numbers passed through the `yaml` filter; `file.managed`
 * with its own `check_cmd`. The fixture is written for tsalt; the expected values are what Salt
 * 3006.18 returned for the same tree (`salt-call --local state.show_sls` / `state.apply`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

function tree(out: string): Record<string, string> {
  return {
    'demo/defaults.yaml': [
      'demo:',
      `  config: ${out}/demo.conf`,
      `  banner_file: ${out}/banner`,
      "  banner: 'Welcome to {host}'",
      "  flag: 'no'",
      "  window: '12:30'",
      '  port: 8080',
      '  users: [ann, bob]',
      '',
    ].join('\n'),
    'demo/map.jinja': [
      '{%- import_yaml tpldir ~ "/defaults.yaml" as defaults %}',
      "{%- set by_os = salt['grains.filter_by']({",
      "    'Debian': {'service': 'demo-deb'},",
      "    'RedHat': {'service': 'demo-rpm'},",
      "  }, grain='os_family', default='Debian') %}",
      '{%- do defaults.demo.update(by_os) %}',
      "{%- set demo = salt['defaults.merge'](defaults.demo, salt['pillar.get']('demo', {}), in_place=False) %}",
      '',
    ].join('\n'),
    'demo/macros.jinja': [
      '{%- macro files_switch(names, prefix="demo") -%}',
      '{%- set found = [] -%}',
      "{%- for dir in [grains['id'], grains['os_family'], 'default'] -%}",
      '{%- for n in names -%}',
      "{%- do found.append('salt://' ~ prefix ~ '/files/' ~ dir ~ '/' ~ n) -%}",
      '{%- endfor -%}',
      '{%- endfor -%}',
      '{{ found | yaml }}',
      '{%- endmacro -%}',
      '',
    ].join('\n'),
    'demo/files/default/demo.conf.jinja': [
      '# {{ demo.service }}',
      'flag={{ demo.flag }}',
      'window={{ demo.window }}',
      'port={{ demo.port }}',
      "users={{ demo.users | join(',') }}",
      '',
    ].join('\n'),
    'demo/init.sls': [
      '{%- from tpldir ~ "/map.jinja" import demo with context %}',
      '{%- from tpldir ~ "/macros.jinja" import files_switch %}',
      'demo-config:',
      '  file.managed:',
      '    - name: {{ demo.config }}',
      "    - source: {{ files_switch(['demo.conf.jinja']) }}",
      '    - template: jinja',
      '    - check_cmd: grep -q flag=no',
      '    - context:',
      '        demo: {{ demo | yaml }}',
      'demo-banner:',
      '  file.managed:',
      '    - name: {{ demo.banner_file }}',
      "    - contents: {{ ('window ' ~ demo.window) | yaml }}",
      'demo-paths:',
      '  test.show_notification:',
      "    - text: {{ salt.file.dirname(demo.config) }} {{ salt.file.join('/srv', demo.service) }}",
      '',
    ].join('\n'),
  };
}

type Entry = { result: boolean | null; changes: Record<string, unknown>; comment: string };

describe('formula patterns through real daemons', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const srv = join(c.root, 'srv', 'salt');
  const pillarRoot = join(c.root, 'srv', 'pillar');
  const out = join(c.root, 'out');

  beforeAll(async () => {
    for (const [rel, text] of Object.entries(tree(out))) {
      mkdirSync(join(srv, rel, '..'), { recursive: true });
      writeFileSync(join(srv, rel), text);
    }
    mkdirSync(pillarRoot, { recursive: true });
    mkdirSync(out, { recursive: true });
    writeFileSync(join(pillarRoot, 'top.sls'), "base:\n  '*':\n    - demo\n");
    writeFileSync(join(pillarRoot, 'demo.sls'), 'demo:\n  port: 9090\n  users: [cy]\n');
    Object.assign(master, { file_roots: { base: [srv] }, pillar_roots: { base: [pillarRoot] } });
    await c.startMaster();
    await c.startMinion('m1');
  }, 90_000);
  afterAll(() => c.stop());

  const tags = {
    config: `file_|-demo-config_|-${out}/demo.conf_|-managed`,
    banner: `file_|-demo-banner_|-${out}/banner_|-managed`,
    paths: 'test_|-demo-paths_|-demo-paths_|-show_notification',
  };

  it('renders map.jinja, the tofs macro and the yaml filter to the high data Salt renders', async () => {
    const r = await c.saltJson(['m1', 'state.show_sls', 'demo']);
    expect(r.code).toBe(0);
    const high = r.data.m1 as Record<string, Record<string, unknown[]>>;
    const config = high['demo-config']!.file!;
    expect(config[1]).toEqual({
      source: [
        'salt://demo/files/m1/demo.conf.jinja',
        'salt://demo/files/Debian/demo.conf.jinja',
        'salt://demo/files/default/demo.conf.jinja',
      ],
    });
    // 'no' and '12:30' stay strings through `| yaml` (PyYAML quotes them), the pillar merged in
    expect(config[4]).toEqual({
      context: {
        demo: {
          banner: 'Welcome to {host}',
          banner_file: `${out}/banner`,
          config: `${out}/demo.conf`,
          flag: 'no',
          port: 9090,
          service: 'demo-deb',
          users: ['cy'],
          window: '12:30',
        },
      },
    });
    expect(high['demo-banner']!.file![1]).toEqual({ contents: 'window 12:30' });
    expect(high['demo-paths']!.test![0]).toEqual({ text: `${out} /srv/demo-deb` });
  });

  it("lets a pillar= override reach salt['pillar.get'] in map.jinja, as Salt's __pillar__ does", async () => {
    const r = await c.saltJson(['m1', 'state.show_sls', 'demo', 'pillar={"demo": {"port": 7070}}']);
    const high = r.data.m1 as Record<string, Record<string, unknown[]>>;
    const ctx = high['demo-config']!.file![4] as { context: { demo: Record<string, unknown> } };
    expect(ctx.context.demo).toMatchObject({ port: 7070, users: ['cy'], flag: 'no' });
  });

  it('predicts with test=True without touching the disk, then applies, check_cmd passing', async () => {
    const dry = await c.saltJson(['m1', 'state.apply', 'demo', 'test=True']);
    const d = dry.data.m1 as Record<string, Entry>;
    expect(d[tags.config]).toMatchObject({
      result: null,
      changes: { newfile: `${out}/demo.conf` },
      comment: `The file ${out}/demo.conf is set to be changed\nNote: No changes made, actual changes may\nbe different due to other states.`,
    });
    expect(d[tags.banner]).toMatchObject({ result: null, changes: { newfile: `${out}/banner` } });
    expect(existsSync(join(out, 'demo.conf'))).toBe(false);

    const real = await c.saltJson(['m1', 'state.apply', 'demo']);
    expect(real.code).toBe(0);
    const a = real.data.m1 as Record<string, Entry>;
    expect(a[tags.config]).toMatchObject({ result: true, comment: `File ${out}/demo.conf updated` });
    expect(readFileSync(join(out, 'demo.conf'), 'utf8')).toBe(
      '# demo-deb\nflag=no\nwindow=12:30\nport=9090\nusers=cy\n',
    );
    expect(readFileSync(join(out, 'banner'), 'utf8')).toBe('window 12:30\n');
    expect(a[tags.paths]).toMatchObject({ result: true, comment: `${out} /srv/demo-deb` });
  });

  it('leaves the file alone when check_cmd rejects the new content', async () => {
    const tpl = join(srv, 'demo/files/default/demo.conf.jinja');
    writeFileSync(tpl, readFileSync(tpl, 'utf8').replace('flag={{ demo.flag }}', 'flag=yes'));
    const r = await c.saltJson(['m1', 'state.apply', 'demo']);
    const e = (r.data.m1 as Record<string, Entry>)[tags.config]!;
    expect(e).toMatchObject({ result: false, changes: {}, comment: 'check_cmd execution failed' });
    expect(readFileSync(join(out, 'demo.conf'), 'utf8')).toContain('flag=no');
  });
});
