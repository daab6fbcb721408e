/**
 * `salt[...]` in the templates a minion renders answers `is defined`, `is callable` and `in salt`
 * as Salt's `__salt__` LazyLoader does: false for a function the minion does not have (no such
 * module, a module whose `virtual` refused, no such function), in the SLS file and in the files it
 * imports; `is callable` is true for an undefined one, as for Jinja's Undefined. Salt 3006.18
 * through `salt-call --local` gave every expected value below (state.show_sls, slsutil.renderer,
 * cp.get_template, cmd.run template=jinja, file.managed template=jinja).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tools/local-cluster.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-tpl-salt-'));
const etc = join(root, 'etc');
const srv = join(root, 'srv');

async function call(...args: string[]): Promise<unknown> {
  const r = await runCli('salt-call', ['--local', '-c', etc, '--out', 'json', ...args]);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { local: unknown }).local;
}

const LINE =
  "a={{ salt['test.ping'] is defined }} b={{ salt['test.nosuchfn'] is defined }} c={{ salt['nosuch.fn'] is callable }} d={{ 'rabbitmq.user_exists' in salt }} e={{ 'docker.ps' not in salt }} f={{ salt.grains.get is defined }} g={{ salt['zfs.list'] is not callable }} h={{ salt[\"test.ping\"] is callable }}";
const RENDERED =
  "a=True b=False c=True d=False e=True f=True g=False h=True {'x': False, 'y': True, 'z': False}";

beforeAll(() => {
  mkdirSync(etc, { recursive: true });
  mkdirSync(join(srv, 'tmpl'), { recursive: true });
  writeFileSync(
    join(etc, 'minion'),
    `${JSON.stringify({ id: 'tpl1', root_dir: join(root, 'root'), file_client: 'local', file_roots: { base: [srv] } })}\n`,
  );
  writeFileSync(
    join(srv, 'tmpl', 'map.jinja'),
    "{%- set m = {'x': salt['nosuch.other'] is defined, 'y': salt['test.echo'] is defined, 'z': 'docker.ps' in salt} %}\n",
  );
  writeFileSync(join(srv, 'tmpl', 'check.jinja'), `${LINE}\n{%- from 'tmpl/map.jinja' import m %} {{ m }}\n`);
  writeFileSync(
    join(srv, 'tmpl', 'init.sls'),
    [
      "{%- from 'tmpl/map.jinja' import m %}",
      'show:',
      '  test.nop:',
      "    - b: {{ salt['test.nosuchfn'] is defined }}",
      "    - d: {{ 'rabbitmq.user_exists' in salt }}",
      "    - g: {{ salt['zfs.list'] is not callable }}",
      "    - i: {{ salt['nosuch.fn'] is defined }}",
      "    - l: {{ 'test.echo' in salt }}",
      "    - n: {{ salt['rabbitmq.user_exists'] is not defined }}",
      '    - m: {{ m | json }}',
      '',
    ].join('\n'),
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("salt[...] of a minion's templates knows the functions it has", () => {
  it('in a state SLS file and the map it imports', async () => {
    const show = (await call('state.show_sls', 'tmpl')) as Record<string, Record<string, unknown[]>>;
    expect(show.show?.test?.slice(0, 7)).toEqual([
      { b: false },
      { d: false },
      { g: false },
      { i: false },
      { l: true },
      { n: true },
      { m: { x: false, y: true, z: false } },
    ]);
  });

  it('in slsutil.renderer, cp.get_template and file.managed templates', async () => {
    expect(await call('slsutil.renderer', 'salt://tmpl/check.jinja', 'default_renderer=jinja')).toBe(
      `${RENDERED}\n`,
    );
    const dest = join(root, 'got.txt');
    expect(await call('cp.get_template', 'salt://tmpl/check.jinja', dest, 'template=jinja')).toBe(dest);
    expect(readFileSync(dest, 'utf8')).toBe(`${RENDERED}\n`);
    const managed = join(root, 'managed.txt');
    await call(
      'state.single',
      'file.managed',
      `name=${managed}`,
      'source=salt://tmpl/check.jinja',
      'template=jinja',
    );
    expect(readFileSync(managed, 'utf8')).toBe(`${RENDERED}\n`);
  });

  it('in cmd.run template=jinja', async () => {
    const cmd =
      "echo {{ salt['nosuch.fn'] is defined }} {{ 'test.ping' in salt }} {{ salt['test.nosuchfn'] is callable }} {{ 'x.y' not in salt }}";
    expect(await call('cmd.run', cmd, 'template=jinja')).toBe('False True True True');
  });
});
