/**
 * Salt's `file.shortcut` state (`salt/states/file.py` `shortcut`): a Windows `.lnk` shortcut.
 * Salt makes them on Windows only; tsalt runs on Linux, where Salt's answer is a failed state
 * with its message, whatever the arguments.
 */
import { defineState } from '../plugins/states/index.js';

export const shortcut = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      target: z.unknown(),
      arguments: z.unknown().default(null),
      working_dir: z.unknown().default(null),
      description: z.unknown().default(null),
      icon_location: z.unknown().default(null),
      force: z.unknown().default(false),
      backupname: z.unknown().default(null),
      makedirs: z.unknown().default(false),
      user: z.unknown().default(null),
    }),
  varkw: true,
  doc: 'Create a Windows shortcut (Windows only: on other systems the state fails).',
  run: (_ctx, a) => ({
    name: a.name,
    changes: {},
    result: false,
    comment: 'Shortcuts are only supported on Windows',
  }),
});
