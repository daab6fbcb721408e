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
      'local_cache',
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
});
