import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tools/local-cluster.js';

// Patterns of bind, ntp, postfix and hostsfile-formula, through salt-call --local: a dict keyed by
// False for the view-less zones, a watch_in naming an id that another state's name shares, popitem()
// over a list of one-item dicts, and the fqdn grains. Expected: what Salt 3006.18 returned for the
// same SLS file (7 of 7 states identical).
const SLS = `{%- set views = {False: {'name': 'plain'}} %}
{%- do views.update({'inner': {'name': 'viewed'}}) %}
{%- for view, data in views.items() %}
zone{{ '-' ~ view if view else '' }}:
  test.succeed_without_changes:
    - name: {{ data.name }}
{%- endfor %}
conf:
  test.succeed_with_changes:
    - watch_in:
      - test: svc
svc:
  test.succeed_without_changes: []
svc2:
  test.succeed_without_changes:
    - name: svc
fqdn-ip:
  test.succeed_without_changes:
    - name: {{ grains.fqdn_ip4 is sequence and grains.fqdns is sequence }}
map:
  test.succeed_without_changes:
    - name: {% for item in [{'k': 'v'}, {'j': 'w'}] %}{% set k, v = item.popitem() %}{{ k }}={{ v }};{% endfor %}
`;

describe('formula patterns (tenth session)', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-t-formulas10-'));
  const conf = join(root, 'etc');

  beforeAll(() => {
    mkdirSync(join(root, 'srv'), { recursive: true });
    mkdirSync(conf, { recursive: true });
    writeFileSync(join(root, 'srv', 'f10.sls'), SLS);
    writeFileSync(
      join(conf, 'minion'),
      `id: f10it\nfile_client: local\nroot_dir: ${join(root, 'root')}\nfile_roots: {base: [${join(root, 'srv')}]}\nlog_level: quiet\n`,
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('applies as Salt 3006.18 does', async () => {
    const r = await runCli(
      'salt-call',
      ['-c', conf, '--local', '--out', 'json', 'state.apply', 'f10'],
      60_000,
    );
    const states = (JSON.parse(r.stdout) as { local: Record<string, Record<string, unknown>> }).local;
    const got = Object.entries(states).map(([k, v]) => [k, v.result, v.comment, v.changes]);
    expect(got).toEqual([
      ['test_|-zone_|-plain_|-succeed_without_changes', true, 'Success!', {}],
      ['test_|-zone-inner_|-viewed_|-succeed_without_changes', true, 'Success!', {}],
      [
        'test_|-conf_|-conf_|-succeed_with_changes',
        true,
        'Success!',
        { testing: { old: 'Unchanged', new: 'Something pretended to change' } },
      ],
      [
        'test_|-svc_|-svc_|-succeed_without_changes',
        true,
        'Watch statement fired.',
        { 'Requisites with changes': ['test: conf'] },
      ],
      ['test_|-svc2_|-svc_|-succeed_without_changes', true, 'Success!', {}],
      ['test_|-fqdn-ip_|-fqdn-ip_|-succeed_without_changes', true, 'Success!', {}],
      ['test_|-map_|-k=v;j=w;_|-succeed_without_changes', true, 'Success!', {}],
    ]);
    expect(r.code).toBe(0);
  });
});
