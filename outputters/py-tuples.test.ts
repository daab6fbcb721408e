import { describe, expect, it } from 'vitest';
import { packNetwork, unpackNetwork } from '../kernel/serial/index.js';
import { renderJson } from './json.js';
import { renderNested } from './nested.js';
import { renderPprint } from './pprint.js';
import { asPyTuple, withPyTuples } from './py-tuples.js';
import { renderRaw } from './raw.js';
import { renderTxt } from './txt.js';
import { renderYaml } from './yaml.js';

// Salt 3006.18, `salt-call --local --out <o> test.arg a 1`: pprint, txt and raw print the args
// tuple as `('a', 1)`; json, yaml and nested as a list.
describe('arrays marked as Python tuples', () => {
  const ret = () => ({ local: { args: asPyTuple(['a', 1]), one: asPyTuple(['x']), list: ['b'] } });

  it("print as tuples where Salt's outputters print Python's repr", () => {
    expect(renderRaw(ret())).toBe("{'local': {'args': ('a', 1), 'one': ('x',), 'list': ['b']}}");
    expect(renderTxt(ret())).toBe("local: {'args': ('a', 1), 'one': ('x',), 'list': ['b']}");
    expect(renderPprint(ret(), { color: false })).toBe(
      "{'local': {'args': ('a', 1), 'list': ['b'], 'one': ('x',)}}",
    );
  });

  it('stay lists for json, yaml, nested and on the wire', () => {
    expect(JSON.parse(renderJson(ret(), { color: false }))).toEqual({
      local: { args: ['a', 1], one: ['x'], list: ['b'] },
    });
    expect(renderYaml(ret(), { color: false })).toContain('args:\n  - a\n  - 1');
    expect(renderNested(ret(), { color: false })).toContain('- a');
    expect(unpackNetwork(packNetwork(ret()))).toEqual({ local: { args: ['a', 1], one: ['x'], list: ['b'] } });
  });

  it('leaves data with no marked array as it is (no copy)', () => {
    const data = { a: [1, { b: [2] }], c: 'd' };
    expect(withPyTuples(data)).toBe(data);
  });
});
