import { describe, expect, it } from 'vitest';
import { fastParseFlags } from '../fast-flags.js';
import { commanderParse, parseSaltCommandLine, saltFlags } from './options.js';

const flags = saltFlags();

describe('salt command line: the fast parser reads what commander reads', () => {
  const lines: string[][] = [
    ['*', 'test.ping'],
    ['-c', '/tmp/etc', '*', 'test.ping'],
    ['-c/tmp/etc', '*', 'test.ping'],
    ['--config-dir=/tmp/etc', '*', 'test.ping', '--out', 'json'],
    ['-L', 'a,b', 'test.arg', '1', 'x=2', '-t', '5', '--static'],
    ['*', 'test.arg', '-5', '-1.5', '-', '--no-color', '--out=yaml', '--out-indent', '2'],
    ['-G', 'os:Arch*', 'cmd.run', 'ls -l', '-v', '--hide-timeout', '--summary'],
    ['*', 'test.ping', '--no-parse', 'a,b', '--args-separator', ';', '--return_config', 'alt'],
    ['-b', '10%', '--batch-wait', '2', '--batch-safe-limit', '5', '--batch-safe-size=3', '*', 'test.ping'],
    ['*', 'test.ping', '-t', '-3', '--delimiter', '-', '--return_kwargs', '{"a": 1}', '--async'],
    ['*', 'test.ping', '--out-file', 'f', '--out-file-append', '--retcode-passthrough', '--show-jid'],
    ['-E', 'web.*', 'test.ping', '-l', 'debug', '--gather-job-timeout', '1', '--force-color', '--failhard'],
    ['*', 'test.ping', '--timeout', '7', '--batch', '2', '--output', 'raw', '--output-indent', '4'],
  ];
  for (const words of lines) {
    it(words.join(' '), () => {
      const fast = fastParseFlags(words, flags);
      expect(fast).toBeDefined();
      expect(fast).toEqual(commanderParse(['node', 'salt', ...words], flags));
    });
  }

  it('leaves help, unknown options, short-flag groups, `--`, missing and refused values to commander', () => {
    for (const words of [
      ['--help'],
      ['-h'],
      ['*', 'test.ping', '--bogus'],
      ['-Lv', 'a', 'test.ping'],
      ['*', 'test.ping', '--', '-x'],
      ['*', 'test.ping', '-t'],
      ['*', 'test.ping', '--static=1'],
      ['*', 'test.ping', '--timeout', 'x'],
      ['-tx', '*', 'test.ping'],
      ['*', 'test.ping', '--out-indent=two'],
    ]) {
      expect(fastParseFlags(words, flags), words.join(' ')).toBeUndefined();
    }
  });

  it('parses a group of short flags through commander', async () => {
    const inv = await parseSaltCommandLine(['node', 'salt', '-Lv', 'a,b', 'test.ping']);
    expect(inv.tgt).toEqual(['a', 'b']);
    expect(inv.tgtType).toBe('list');
    expect(inv.opts.verbose).toBe(true);
  });

  it('builds the invocation', async () => {
    const inv = await parseSaltCommandLine(['node', 'salt', '-c', '/x', '*', 'test.arg', '1', 'a=b']);
    expect(inv).toMatchObject({
      tgt: '*',
      tgtType: 'glob',
      fun: 'test.arg',
      arg: [1, { a: 'b', __kwarg__: true }],
    });
    expect(inv.opts.configDir).toBe('/x');
    expect(inv.opts.color).toBe(true);
  });
});
