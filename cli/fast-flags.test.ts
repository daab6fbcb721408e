import { describe, expect, it } from 'vitest';
import { describeFlag, fastParseFlags } from './fast-flags.js';

describe('fastParseFlags', () => {
  const specs = [
    { flags: '-c, --config-dir <dir>', default: '/etc/salt' },
    { flags: '-t, --timeout <seconds>', parse: Number },
    { flags: '--no-color' },
    { flags: '-v, --verbose' },
  ];

  it('names options as commander does', () => {
    expect(describeFlag({ flags: '--return_config <name>' }).key).toBe('return_config');
    expect(describeFlag({ flags: '--no-parse <names>' })).toMatchObject({ key: 'parse', negate: true });
    expect(() => describeFlag({ flags: '--opt [maybe]' })).toThrow(TypeError);
  });

  it('reads values, defaults, negations and options among the words', () => {
    expect(fastParseFlags(['a', '-t5', 'b', '--no-color', '-v', '--config-dir=/x', '-2'], specs)).toEqual({
      opts: { configDir: '/x', color: false, timeout: 5, verbose: true },
      args: ['a', 'b', '-2'],
    });
    expect(fastParseFlags([], specs)).toEqual({ opts: { configDir: '/etc/salt', color: true }, args: [] });
  });

  it('gives up on what commander must decide', () => {
    for (const words of [['--help'], ['-vt', '5'], ['--'], ['-c'], ['--verbose=1'], ['--nope']]) {
      expect(fastParseFlags(words, specs), words.join(' ')).toBeUndefined();
    }
  });
});
