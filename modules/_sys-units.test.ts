import { describe, expect, it } from 'vitest';
import { invoke } from './_fake-ctx.js';
import sys from './sys.js';

describe('sys: renderers, returners and runners', () => {
  it('list_renderers lists the renderers, sorted, optionally by glob', async () => {
    expect((await invoke(sys, 'list_renderers')).value).toEqual([
      'dson',
      'gpg',
      'hjson',
      'jinja',
      'js',
      'json',
      'json5',
      'msgpack',
      'nacl',
      'pass',
      'stateconf',
      'toml',
      'yaml',
      'yamlex',
    ]);
    expect((await invoke(sys, 'list_renderers', ['j*'])).value).toEqual(['jinja', 'js', 'json', 'json5']);
  });

  it('list_returners lists the returners by module name', async () => {
    expect((await invoke(sys, 'list_returners')).value).toEqual([
      'job_store',
      'local',
      'local_cache',
      'mattermost',
      'postgres',
      'redis',
    ]);
    expect((await invoke(sys, 'list_returners', ['local_cache'])).value).toEqual(['local_cache']);
    expect((await invoke(sys, 'list_returners', ['nope'])).value).toEqual([]);
  });

  it('list_runners and list_runner_functions come from the runner loader', async () => {
    const runners = (await invoke(sys, 'list_runners')).value as string[];
    expect(runners).toEqual(expect.arrayContaining(['jobs', 'manage', 'state', 'test']));
    expect((await invoke(sys, 'list_runners', ['manage'])).value).toEqual(['manage']);
    const fns = (await invoke(sys, 'list_runner_functions', ['manage'])).value as string[];
    expect(fns).toContain('manage.up');
    expect(fns.every((f) => f.startsWith('manage.'))).toBe(true);
    const docs = (await invoke(sys, 'runner_doc', ['manage.up'])).value as Record<string, string | null>;
    expect(Object.keys(docs)).toEqual(['manage.up']);
  });

  it("list_returner_functions, returner_argspec: Salt's names and signatures, Salt's local_cache functions only", async () => {
    expect((await invoke(sys, 'list_returner_functions', ['local_cache.get_*'])).value).toEqual([
      'local_cache.get_endtime',
      'local_cache.get_jid',
      'local_cache.get_jids',
      'local_cache.get_jids_filter',
      'local_cache.get_load',
    ]);
    expect((await invoke(sys, 'list_returner_functions', ['nosuch'])).value).toEqual([]);
    const specs = (await invoke(sys, 'returner_argspec', ['local_cache'])).value as Record<string, unknown>;
    expect(specs['local_cache.prep_jid']).toEqual({
      args: ['nocache', 'passed_jid', 'recurse_count'],
      defaults: [false, null, 0],
      varargs: null,
      kwargs: null,
    });
    expect(specs['local_cache.get_fun']).toBeUndefined();
    expect((await invoke(sys, 'returner_argspec', ['redis.get_fun'])).value).toEqual({
      'redis.get_fun': { args: ['fun'], defaults: null, varargs: null, kwargs: null },
    });
    expect((await invoke(sys, 'returner_doc', ['nosuch'])).value).toEqual({});
    const docs = (await invoke(sys, 'returner_doc', ['local_cache.get_jid'])).value as Record<string, string>;
    expect(Object.keys(docs)).toEqual(['local_cache.get_jid']);
  });

  it('runner_argspec reads the runner loader', async () => {
    expect((await invoke(sys, 'runner_argspec', ['test.sleep'])).value).toEqual({
      'test.sleep': { args: ['s_time'], defaults: [10], varargs: null, kwargs: null },
    });
    expect((await invoke(sys, 'runner_argspec', ['nosuch'])).value).toEqual({});
  });
});
