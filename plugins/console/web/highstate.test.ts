import { describe, expect, it } from 'vitest';
import { stateRows } from './highstate.js';

describe('highstate view', () => {
  it('reads a state return, failed states first, then in run order', () => {
    const rows = stateRows({
      'file_|-motd_|-/etc/motd_|-managed': {
        result: true,
        comment: 'ok',
        changes: { diff: '+hi' },
        __run_num__: 0,
        __id__: 'motd',
      },
      'cmd_|-boom_|-false_|-run': { result: false, comment: 'exit 1', changes: {}, __run_num__: 1 },
      'pkg_|-vim_|-vim_|-installed': { result: null, comment: 'would install', changes: {}, __run_num__: 2 },
    });
    expect(rows?.map((r) => [r.id, r.fun, r.result])).toEqual([
      ['boom', 'cmd.run', false],
      ['motd', 'file.managed', true],
      ['vim', 'pkg.installed', null],
    ]);
  });

  it('is not a state return otherwise', () => {
    expect(stateRows(true)).toBeUndefined();
    expect(stateRows({ a: 1 })).toBeUndefined();
    expect(stateRows(['x'])).toBeUndefined();
  });
});
