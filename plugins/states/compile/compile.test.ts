/**
 * The compiler over SLS files written to a temp dir: render errors name the file and line,
 * a missing SLS is Salt's "No matching sls found", the call's `exclude`, `state_auto_order`
 * off, `names` with arguments, `order` numbers, and includes that nest without end.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlsRenderer, SlsSource } from '../types.js';
import { compileSls, highToLow } from './index.js';
import { rootsRenderer, rootsSource } from './roots-source.js';

let dir: string;
let source: SlsSource;
let render: SlsRenderer;

function write(rel: string, text: string): void {
  const path = join(dir, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsalt-t-compile-'));
  write('bad/yaml.sls', 'a:\n  cmd.run:\n   - name: x\n  - bad\n');
  write('bad/jinja.sls', 'a:\n  cmd.run:\n    - name: {{ nosuch.attr }}\n');
  write('loop/init.sls', 'include:\n  - loop.again\nl0: {test.nop: []}\n');
  write('loop/again.sls', 'include:\n  - loop\nl1: {test.nop: []}\n');
  write(
    'web/init.sls',
    'include:\n  - .conf\nnginx:\n  pkg.installed: []\n  service.running:\n    - enable: True\n',
  );
  write('web/conf.sls', 'conf:\n  file.managed:\n    - name: /etc/x\n');
  write(
    'names.sls',
    [
      'users:',
      '  user.present:',
      '    - names:',
      '      - bob',
      '      - al:',
      '        - uid: 2001',
      '    - shell: /bin/sh',
      'z:',
      '  test.nop: []',
      'a:',
      '  test.nop: []',
      '',
    ].join('\n'),
  );
  const roots = { base: [dir] };
  source = rootsSource(roots);
  render = rootsRenderer({ roots });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('compileSls', () => {
  it('a render error names the SLS, the file and the line', async () => {
    const y = await compileSls(source, render, ['bad.yaml'], 'base');
    expect(y.errors).toHaveLength(1);
    expect(y.errors[0]).toMatch(/^Rendering SLS 'base:bad\.yaml' failed: .*bad\/yaml\.sls, line 4/);
    const j = await compileSls(source, render, ['bad.jinja'], 'base');
    expect(j.errors[0]).toMatch(
      /^Rendering SLS 'base:bad\.jinja' failed: .*line 3.*Jinja variable 'nosuch' is undefined/,
    );
  });

  it('a missing SLS is "No matching sls found"', async () => {
    const r = await compileSls(source, render, ['nosuch'], 'base');
    expect(r.errors).toEqual(["No matching sls found for 'nosuch' in env 'base'"]);
  });

  it('includes in a circle render each file once', async () => {
    const r = await compileSls(source, render, ['loop'], 'base');
    expect(r.errors).toEqual([]);
    expect(Object.keys(r.high)).toEqual(['l0', 'l1']);
  });

  it("the call's exclude removes an id or an SLS (state.sls exclude=)", async () => {
    const r = await compileSls(source, render, ['web'], 'base', { exclude: 'web.conf' });
    expect(r.high.__exclude__).toEqual(['web.conf']);
    expect(highToLow(r.high).chunks.map((c) => c.__id__)).toEqual(['nginx', 'nginx']);
    const byId = await compileSls(source, render, ['web'], 'base', { exclude: [{ id: 'nginx' }] });
    expect(highToLow(byId.high).chunks.map((c) => c.name)).toEqual(['/etc/x']);
  });

  it('state_auto_order numbers declarations in definition order; off, chunks sort by state, name and function', async () => {
    const on = await compileSls(source, render, ['web'], 'base');
    const onLow = highToLow(on.high).chunks;
    expect(onLow.map((c) => [c.state, c.fun, c.order])).toEqual([
      ['file', 'managed', 10000],
      ['pkg', 'installed', 10001],
      ['service', 'running', 10002],
    ]);
    const off = await compileSls(source, render, ['names', 'web'], 'base', { stateAutoOrder: false });
    const offLow = highToLow(off.high).chunks;
    expect(offLow.map((c) => `${c.state}.${c.name}`)).toEqual([
      'file./etc/x',
      'pkg.nginx',
      'service.nginx',
      'test.a',
      'test.z',
      'user.al',
      'user.bob',
    ]);
    // without an order, Salt gives `cap` and skips the names' fraction (name_order stays in the chunk)
    expect(offLow.map((c) => c.order)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(offLow.at(-1)?.name_order).toBe(1);
  });

  it('names expand to one chunk each, an entry with arguments adds them', async () => {
    const r = await compileSls(source, render, ['names'], 'base');
    const users = highToLow(r.high).chunks.filter((c) => c.state === 'user');
    expect(users).toEqual([
      {
        state: 'user',
        name: 'bob',
        __sls__: 'names',
        __env__: 'base',
        __id__: 'users',
        shell: '/bin/sh',
        order: 10000.0001,
        fun: 'present',
      },
      {
        state: 'user',
        name: 'al',
        __sls__: 'names',
        __env__: 'base',
        __id__: 'users',
        shell: '/bin/sh',
        order: 10000.0002,
        uid: 2001,
        fun: 'present',
      },
    ]);
  });
});
