import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExecContext } from '../kernel/index.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import fileMod from './file.js';
import logrotate from './logrotate.js';

// Expectations: salt-call --local (Salt 3006.18) over the same files.
const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-logrotate-'));
const conf = join(dir, 'logrotate.conf');
mkdirSync(join(dir, 'd'));
writeFileSync(
  conf,
  `# conf\nweekly\nrotate 4\ncreate\ninclude ${dir}/d\n/var/log/wtmp {\n    missingok\n    monthly\n    create 0664 root utmp\n    rotate 1\n}\n/var/log/a\n{\n  daily\n}\n`,
);
writeFileSync(
  join(dir, 'd', 'apt'),
  '/var/log/apt/term.log /var/log/apt/history.log {\n  rotate 12\n  monthly\n}\n',
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx: ExecContext = fakeCtx({
  call: async (fun, args = [], kwargs = {}) =>
    (await invoke(fileMod, fun.slice(5), [...args, { __kwarg__: true, ...kwargs }])).value,
});
const call = async (fun: string, arg: unknown[]) => (await invoke(logrotate, fun, arg, ctx)).value;
const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });

describe('logrotate', () => {
  it('reads directives, blocks and included files', async () => {
    const apt = { rotate: 12, monthly: true };
    expect(await call('show_conf', [conf])).toEqual({
      weekly: true,
      rotate: 4,
      create: true,
      'include files': { apt: ['/var/log/apt/term.log', '/var/log/apt/history.log'] },
      '/var/log/apt/term.log': apt,
      '/var/log/apt/history.log': apt,
      include: `${dir}/d`,
      '/var/log/wtmp': { missingok: true, monthly: true, create: '0664 root utmp', rotate: 1 },
      '/var/log/a': { daily: true },
    });
    expect(await call('get', ['rotate', kw({ conf_file: conf })])).toBe(4);
    expect(await call('get', ['/var/log/wtmp', 'create', conf])).toBe('0664 root utmp');
    expect(await call('get', ['/var/log/wtmp', 'nope', conf])).toBe(false);
    expect(await call('get', ['nope', kw({ conf_file: conf })])).toBe(false);
  });

  it('sets a directive and a setting inside a block', async () => {
    expect(await call('set', ['rotate', 4, kw({ conf_file: conf })])).toBe(true);
    expect(await call('set', ['rotate', 2, kw({ conf_file: conf })])).toBe(true);
    expect(await call('set', ['/var/log/wtmp', 'rotate', 3, conf])).toBe(true);
    expect(readFileSync(conf, 'utf8')).toContain('\nrotate 2\n');
    expect(readFileSync(conf, 'utf8')).toContain(
      '/var/log/wtmp {\n    missingok \n    monthly \n    create 0664 root utmp\n    rotate 3\n}\n',
    );
    await expect(call('set', ['/var/log/wtmp', 3, kw({ conf_file: conf })])).rejects.toThrow(
      'Error: /var/log/wtmp includes a dict, and a specific setting inside the dict was not declared',
    );
  });
});
