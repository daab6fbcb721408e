/**
 * Salt's `local` returner (salt/returners/local.py): prints each return, and each batch of bus
 * events, on the process's stdout as Python's `print` shows them, to check that returns reach
 * returners (`salt-call test.ping --return local`).
 */
import { defineReturner } from '../kernel/index.js';
import { pyRepr } from '../kernel/util.js';
import { withPyTuples } from '../outputters/py-tuples.js';

export default defineReturner({
  name: 'local',
  doc: 'Prints each return (and each batch of events) on stdout.',
  async returner(ret) {
    process.stdout.write(`${pyRepr(withPyTuples(ret))}\n`);
  },
  async eventReturn(events) {
    process.stdout.write(`${pyRepr(events)}\n`);
  },
});
