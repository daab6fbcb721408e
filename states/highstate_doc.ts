/**
 * Salt's `highstate_doc` state module (`salt/states/highstate_doc.py`): `highstate_doc.note`
 * changes nothing; it only carries text (`contents`, or a `source` file) that the
 * `highstate_doc` execution module's processors put into the rendered document.
 */

import { pyStr, pyTruthy } from '../kernel/util.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

export default defineStateModule({
  name: 'highstate_doc',
  doc: 'Notes for documents rendered with the highstate_doc execution module.',
  functions: {
    note: defineState({
      args: (z) =>
        z.object({
          name: z.unknown(),
          source: z.unknown().default(null),
          contents: z.unknown().default(null),
        }),
      varkw: true,
      doc: 'Add a note (contents, or a source file) to a document made by highstate_doc.render; changes nothing on the host.',
      async run(_ctx, a): Promise<StateReturn> {
        let comment = '';
        if (pyTruthy(a.source)) comment += `include file: ${pyStr(a.source)}\n`;
        // Salt keeps short contents only (under 200 characters) in the comment
        if (pyTruthy(a.contents) && typeof a.contents === 'string' && [...a.contents].length < 200)
          comment += a.contents;
        return { name: pyStr(a.name), result: true, comment, changes: {} };
      },
    }),
  },
});
