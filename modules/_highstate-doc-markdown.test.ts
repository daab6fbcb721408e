import { describe, expect, it } from 'vitest';
import { fakeCtx } from './_fake-ctx.js';
import { processorMarkdown } from './_highstate-doc-markdown.js';

// Salt 3006.18's processor_markdown never returns: each answer below is what it raised (measured).
describe('processorMarkdown', () => {
  const stats = fakeCtx({
    call: async (fun, args) => {
      if (fun !== 'file.stats') throw new Error(`unexpected ${fun}`);
      if (args?.[0] === '/etc/hostname') return { size: 3 };
      throw new Error(`Path not found: ${String(args?.[0])}`);
    },
  });

  it("ends in Salt's AttributeError for a chunk that passes its checks", async () => {
    await expect(
      processorMarkdown(stats, { state: 'pkg', fun: 'installed', __id__: 'x', name: 'vim' }, {}),
    ).rejects.toThrow("'str' object has no attribute 'decode'");
  });

  it('fails first where Salt reads a missing key, walks a bad requisite or compares a size', async () => {
    await expect(processorMarkdown(stats, { fun: 'installed' }, {})).rejects.toThrow("'state'");
    await expect(
      processorMarkdown(stats, { state: 'pkg', fun: 'installed', __id__: 'x' }, {}),
    ).rejects.toThrow("'name'");
    await expect(
      processorMarkdown(
        stats,
        { state: 'pkg', fun: 'installed', __id__: 'x', name: 'v', require: ['a'] },
        {},
      ),
    ).rejects.toThrow("'str' object has no attribute 'items'");
    const managed = { state: 'file', fun: 'managed', __id__: 'x', name: '/etc/hostname' };
    await expect(processorMarkdown(stats, managed, {})).rejects.toThrow(
      "'<=' not supported between instances of 'int' and 'NoneType'",
    );
    await expect(processorMarkdown(stats, { ...managed, name: '/nope' }, {})).rejects.toThrow(
      'Path not found: /nope',
    );
    await expect(processorMarkdown(stats, 'abc', {})).rejects.toThrow(
      "string indices must be integers, not 'str'",
    );
  });
});
