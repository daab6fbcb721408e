/**
 * `--out=quiet` (`salt/output/no_out_quiet.py`): prints nothing.
 */
import { defineOutputter, type Outputter } from './types.js';

/** `--out=quiet`. */
export const quietOutputter: Outputter = defineOutputter({ name: 'quiet', render: () => '' });
