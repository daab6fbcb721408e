/**
 * Salt's `minions` wheel (`salt/wheel/minions.py`): which minions are connected.
 */

import { defineWheel, defineWheelFunction } from '../../../kernel/index.js';
import { listKeys, readPresence } from '../../../kernel/services.js';

export default defineWheel({
  name: 'minions',
  doc: 'Wheel system wrapper for connected minions.',
  functions: {
    connected: defineWheelFunction({
      doc: 'List the minions with accepted keys that hold a live connection to the master (presence).',
      run: async (ctx) => {
        const pki = typeof ctx.opts.pki_dir === 'string' ? ctx.opts.pki_dir : '';
        const cachedir = typeof ctx.opts.cachedir === 'string' ? ctx.opts.cachedir : '';
        const accepted = new Set((await listKeys(pki)).minions);
        return (readPresence(cachedir)?.present ?? []).filter((id) => accepted.has(id)).sort();
      },
    }),
  },
});
