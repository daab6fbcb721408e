import { describe, expect, it } from 'vitest';
import { startupJob } from './startup-states.js';

describe('startup_states', () => {
  it('names the state job Salt runs for each mode, and none when empty', () => {
    expect(startupJob({ startup_states: '' })).toBeUndefined();
    expect(startupJob({ startup_states: 'highstate' })).toEqual({
      jid: 'req',
      fun: 'state.highstate',
      arg: [],
      ret: '',
    });
    expect(startupJob({ startup_states: 'sls', extra: { sls_list: ['web', 'db'] } })).toMatchObject({
      fun: 'state.sls',
      arg: ['web,db'],
    });
    expect(startupJob({ startup_states: 'top', top_file: 'salt://other_top.sls' })).toMatchObject({
      fun: 'state.top',
      arg: ['salt://other_top.sls'],
    });
  });
});
