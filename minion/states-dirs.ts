/**
 * `states_dirs` (plugins/states/options.ts) read without building the states plugin's zod
 * schemas: a job process reads it before its first job, where the schemas of ~25 options cost
 * ~5 ms of CPU. A bad value fails as `minionStatesOptions.read` fails, with the same message
 * (states-dirs.test.ts holds the two together).
 */
import type { ConfigWithExtra } from '../kernel/config/option-set.js';
import { formatIssues } from '../kernel/config/report.js';
import { SALT_ERR_CONFIG_INVALID } from '../kernel/errors.js';

const MESSAGE = 'expected a list of strings';

/** The minion's extra state module folders (`[]` when unset or null). */
export function readStatesDirs(config: ConfigWithExtra): readonly string[] {
  const dirs = config.extra?.states_dirs;
  if (dirs === undefined || dirs === null) return [];
  const bad = !Array.isArray(dirs) ? -1 : dirs.findIndex((d) => typeof d !== 'string');
  if (Array.isArray(dirs) && bad < 0) return dirs as string[];
  const path = bad < 0 ? ['states_dirs'] : ['states_dirs', bad];
  const issue = { code: 'custom', path, message: MESSAGE, input: dirs } as const;
  throw new SALT_ERR_CONFIG_INVALID(
    config.conf_file ?? 'the config',
    formatIssues([issue], { states_dirs: dirs }),
    { details: [issue] },
  );
}
