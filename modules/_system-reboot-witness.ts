/**
 * Salt's `system.set_reboot_required_witnessed` and `system.get_reboot_required_witnessed`,
 * merged into `modules/system.ts`: a marker file on a temporary path, so that it is gone after
 * a reboot. Salt's quirk is kept: the marker is touched only when its folder had to be made, so
 * a second `set` in one boot answers False.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { defineFunction, SALT_ERR_INVOCATION } from '../kernel/index.js';

export const REBOOT_WITNESS_PATH = '/var/volatile/tmp/salt/reboot_witnessed';

export const rebootWitnessFunctions = {
  set_reboot_required_witnessed: defineFunction({
    doc: `This function is used to remember that an event indicating that a reboot is required was
witnessed. This function writes to a temporary filesystem so the event gets cleared upon reboot.

Returns: True if successful, otherwise False.

CLI Example:

    salt '*' system.set_reboot_required_witnessed`,
    run: async (ctx) => {
      const dir = dirname(REBOOT_WITNESS_PATH);
      if (existsSync(dir)) return false;
      try {
        mkdirSync(dir, { recursive: true });
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        throw new SALT_ERR_INVOCATION(
          `Error creating ${dir} (-${e.errno === undefined ? '' : -e.errno}): ${e.message}`,
        );
      }
      const r = (await ctx.call('cmd.run_all', [`touch ${REBOOT_WITNESS_PATH}`])) as { retcode: number };
      return r.retcode === 0;
    },
  }),
  get_reboot_required_witnessed: defineFunction({
    doc: `Determine if at any time during the current boot session the salt minion witnessed an
event indicating that a reboot is required.

Returns: True if a reboot request was witnessed, False otherwise.

CLI Example:

    salt '*' system.get_reboot_required_witnessed`,
    run: () => existsSync(REBOOT_WITNESS_PATH),
  }),
};
