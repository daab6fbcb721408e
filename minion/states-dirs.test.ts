import { describe, expect, it } from 'vitest';
import { minionStatesOptions } from '../plugins/states/options.js';
import { readStatesDirs } from './states-dirs.js';

const outcome = (read: () => readonly string[]): unknown => {
  try {
    return { dirs: read() };
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
};

describe('readStatesDirs (states_dirs without the zod schema)', () => {
  it.each([
    ['unset', undefined],
    ['null', null],
    ['a list', ['/srv/a', '/srv/b']],
    ['an empty list', []],
    ['a string', '/srv/a'],
    ['a number in the list', ['/srv/a', 3]],
    ['a mapping', { a: 1 }],
    ['a number', 5],
  ])('%s: the same value or error as minionStatesOptions.read', (_, value) => {
    const config = { extra: value === undefined ? {} : { states_dirs: value }, conf_file: '/etc/t/minion' };
    const expected = outcome(() => minionStatesOptions.read(config).states_dirs);
    expect(outcome(() => readStatesDirs(config))).toEqual(expected);
  });

  it('names the bad entry', () => {
    expect(() => readStatesDirs({ extra: { states_dirs: ['/a', 7] } })).toThrow(
      'states_dirs[1]: expected a list of strings, got 7',
    );
  });
});
