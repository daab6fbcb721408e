/**
 * Test support: the source of a throwaway state module `tsaltt` (no `mod_watch`, a function
 * that throws, one with a malformed return, one with a list comment and a numeric result),
 * the twin of the Python module the fixtures were recorded with on real Salt.
 */
export const TSALTT_MODULE = `
const kw = (extra) => extra.kwargs;
export default {
  name: 'tsaltt',
  functions: {
    ok: { varkw: true, run: (_ctx, _a, extra) => ({ name: kw(extra).name, changes: {}, result: true, comment: 'ok' }) },
    changed: { varkw: true, run: (_ctx, _a, extra) => ({ name: kw(extra).name, changes: { x: 1 }, result: true, comment: 'changed' }) },
    boom: { varkw: true, run: () => { throw new Error('boom here'); } },
    badret: { varkw: true, run: (_ctx, _a, extra) => ({ name: kw(extra).name, changes: [], result: true, comment: '' }) },
    listcomment: { varkw: true, run: (_ctx, _a, extra) => ({ name: kw(extra).name, changes: {}, result: 1, comment: ['a', 'b'] }) },
    strict: {
      args: (z) => z.object({ name: z.string(), size: z.number().default(1) }),
      run: (_ctx, a) => ({ name: a.name, changes: {}, result: true, comment: 'size ' + a.size }),
    },
    sleepy: {
      varkw: true,
      run: async (_ctx, _a, extra) => {
        await new Promise((r) => setTimeout(r, Number(kw(extra).ms ?? 200)));
        return { name: kw(extra).name, changes: { slept: kw(extra).ms ?? 200 }, result: true, comment: 'slept' };
      },
    },
  },
};
`;
