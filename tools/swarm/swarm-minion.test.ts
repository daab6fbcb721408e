import { describe, expect, it } from 'vitest';
import { buildReturnLoad } from './swarm-minion.js';

describe('swarm minion return load', () => {
  it("keeps the field order of Salt's minion and carries the optional publish fields", () => {
    const load = buildReturnLoad(
      'm1',
      { jid: '20261122120000000000', fun: 'test.ping', arg: [], user: 'root', tgt: '*' },
      { return: true, retcode: 0, success: true },
    );
    expect(Object.keys(load)).toEqual([
      'cmd',
      'id',
      'success',
      'return',
      'retcode',
      'jid',
      'fun',
      'fun_args',
      'user',
      '_stamp',
    ]);
    expect(load).toMatchObject({ cmd: '_return', id: 'm1', return: true, fun_args: [] });
    expect(String(load._stamp)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
  });

  it('passes the outputter of a failed function on', () => {
    const load = buildReturnLoad(
      'm2',
      { jid: '1', fun: 'nope.nope', arg: [1] },
      { return: "'nope.nope' is not available.", retcode: 1, success: false, out: 'nested' },
    );
    expect(load.out).toBe('nested');
    expect(load.user).toBeUndefined();
  });
});
