/** The arguments the composer module's `install`/`update` and the composer states share. */
/**
 * Composer's flags, `quiet` and `composer_home`, in Salt's order: the arguments after the run-as
 * user in `install` and `update`, and in the composer states.
 */
export const composerFlagArgs = (z: typeof import('zod').z) => ({
  prefer_source: z.unknown().default(null),
  prefer_dist: z.unknown().default(null),
  no_scripts: z.unknown().default(null),
  no_plugins: z.unknown().default(null),
  optimize: z.unknown().default(null),
  no_dev: z.unknown().default(null),
  quiet: z.unknown().default(false),
  composer_home: z.unknown().default('/root'),
});
