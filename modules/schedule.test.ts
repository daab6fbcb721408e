import { describe, expect, it } from 'vitest';
import { invoke } from './_fake-ctx.js';
import schedule from './schedule.js';

describe('schedule (no scheduler: an empty schedule, as Salt with none configured)', () => {
  it('list is `schedule: {}` as YAML, {} with return_yaml=False', async () => {
    expect((await invoke(schedule, 'list')).value).toBe('schedule: {}\n');
    expect((await invoke(schedule, 'list', [{ return_yaml: false, __kwarg__: true }])).value).toEqual({});
    expect((await invoke(schedule, 'list', [{ show_all: true, __kwarg__: true }])).value).toBe(
      'schedule: {}\n',
    );
  });
  it('is_enabled: the whole (empty) schedule, {} for a job that does not exist', async () => {
    expect((await invoke(schedule, 'is_enabled')).value).toEqual({});
    expect((await invoke(schedule, 'is_enabled', ['job1'])).value).toEqual({});
  });
});
