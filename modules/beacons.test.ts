import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import { which } from './_which.js';
import beacons, { availableBeacons } from './beacons.js';

const kw = (o: Record<string, unknown>) => ({ ...o, __kwarg__: true });
const root = mkdtempSync(join(tmpdir(), 'tsalt-beaconsmod-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const configured = {
  load: [{ averages: { '1m': [0.0, 2.0] } }, { interval: 10 }],
  watch: [{ beacon_module: 'load' }, { enabled: false }],
};

describe('beacons.list: the minion config `beacons`, as Salt lists them', () => {
  it('YAML by default (PyYAML block style), the mapping with return_yaml=False', async () => {
    const ctx = fakeCtx({ opts: { beacons: configured } });
    expect((await invoke(beacons, 'list', [kw({ return_yaml: false })], ctx)).value).toEqual(configured);
    expect((await invoke(beacons, 'list', [], ctx)).value).toBe(
      [
        'beacons:',
        '  load:',
        '  - averages:',
        '      1m:',
        '      - 0',
        '      - 2',
        '  - interval: 10',
        '  watch:',
        '  - beacon_module: load',
        '  - enabled: false',
        '',
      ].join('\n'),
    );
  });
  it('none configured: `beacons: {}` / {}; include_opts=False leaves them out', async () => {
    expect((await invoke(beacons, 'list', [], fakeCtx({ opts: { beacons: {} } }))).value).toBe(
      'beacons: {}\n',
    );
    expect((await invoke(beacons, 'list', [kw({ return_yaml: false })])).value).toEqual({});
    const ctx = fakeCtx({ opts: { beacons: configured } });
    expect(
      (await invoke(beacons, 'list', [kw({ return_yaml: false, include_opts: false })], ctx)).value,
    ).toEqual({});
  });
});

describe('beacons.list_available: the beacon modules the minion has', () => {
  it('finds modules by the name they declare in the beacon folders', async () => {
    const dir = join(root, 'extmods', 'beacons');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'disk-watch.mjs'), "export default { name: 'diskwatch', beacon: () => [] };\n");
    writeFileSync(join(dir, 'broken.mjs'), 'export default 42;\n');
    const names = await availableBeacons(fakeCtx(), [dir]);
    expect(names).toEqual(['diskwatch']);
  });
  it('lists the built-in load beacon; {beacons: {}} when there are none', async () => {
    const ctx = fakeCtx({ opts: { extension_modules: join(root, 'none') } });
    const list = (await invoke(beacons, 'list_available', [kw({ return_yaml: false })], ctx)).value;
    expect(list).toEqual(
      expect.arrayContaining(['cert_info', 'load', 'pkg', 'salt_monitor', 'service', 'status']),
    );
    // glxinfo and sh only where their programs are (Salt's __virtual__)
    expect((list as string[]).includes('sh')).toBe(which('strace') !== null);
    expect((list as string[]).includes('glxinfo')).toBe(which('glxinfo') !== null);
    expect((await invoke(beacons, 'list_available', [], ctx)).value).toMatch(/^beacons:\n(- \w+\n)*- load\n/);
    expect(await availableBeacons(ctx, [join(root, 'empty')])).toEqual([]);
  });
});
