import { describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import locateMod from './locate.js';

// Without mlocate/plocate, Salt's locate functions answer cmd.run's error for the command they
// built; that command shows the options taken from the keyword arguments.
describe.skipIf(which('locate') !== null || which('updatedb') !== null)(
  'locate without a locate program',
  () => {
    const ctx = moduleCtx([cmdMod, locateMod]);
    it('builds the options in the order given and fails as cmd.run does', async () => {
      await expect(
        ctx.call('locate.locate', ['passwd'], {
          limit: 3,
          ignore: true,
          basename: true,
          count: false,
          regex: 1,
        }),
      ).rejects.toThrow("Unable to run command '['locate', '-ib', '-l', '3', '--regex', 'passwd']'");
      await expect(ctx.call('locate.locate', ['x', '/tmp/db'])).rejects.toThrow(
        "Unable to run command '['locate', '-d', '/tmp/db', 'x']'",
      );
      await expect(ctx.call('locate.version')).rejects.toThrow("Unable to run command '['locate', '-V']'");
      await expect(ctx.call('locate.updatedb')).rejects.toThrow("Unable to run command '['updatedb']'");
    });
  },
);
