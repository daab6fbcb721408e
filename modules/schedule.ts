/**
 * Salt's `schedule` execution module (`salt/modules/schedule.py`), reading side. tsalt's
 * minion has no job scheduler, so its schedule is always empty: `schedule.list` answers what
 * a Salt minion with no `schedule` configured answers (`schedule: {}` as YAML, or `{}`), and
 * the other read-only functions follow from that.
 */
import { defineFunction, defineModule } from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { pyYamlDump } from './_yaml-dump.js';

/** The minion's scheduled jobs: none (tsalt runs no scheduler). */
function scheduled(): Record<string, Record<string, unknown>> {
  return {};
}

export default defineModule({
  name: 'schedule',
  doc: 'Module for viewing the minion schedule (tsalt runs no scheduler: the schedule is empty).',
  functions: {
    list: defineFunction({
      args: (z) =>
        z.object({
          show_all: pyFlag(z, false),
          show_disabled: pyFlag(z, true),
          where: z.unknown().optional(),
          return_yaml: pyFlag(z, true),
          offline: pyFlag(z, false),
        }),
      doc: 'List the jobs currently scheduled on the minion.\n\nreturn_yaml=False returns a mapping instead of YAML text.',
      run: (_ctx, { return_yaml }) => {
        const schedule = scheduled();
        return return_yaml ? pyYamlDump({ schedule }) : schedule;
      },
    }),
    is_enabled: defineFunction({
      args: (z) => z.object({ name: z.string().nullish() }),
      doc: 'The schedule job `name` (or, without a name, the whole schedule).',
      run: (_ctx, { name }) => (name ? (scheduled()[name] ?? {}) : scheduled()),
    }),
  },
});
