/**
 * tsalt's own version: the plugin API's `kernelVersion`, and beside the Salt version in
 * `--version`, the `tsaltversion` grain and `test.versions_report`.
 */
export const VERSION = '0.1.0';
/**
 * The Salt release whose wire protocol and behaviour tsalt follows, reported wherever Salt
 * reports its own version (`test.version`, `manage.versions`, the `saltversion` grains,
 * `--version`): Salt clients and formulas branch on it.
 */
export const SALT_COMPAT_VERSION = '3006.18';
/** The code name Salt gives that release line (`salt --version`: `salt 3006.18 (Sulfur)`). */
export const SALT_COMPAT_CODENAME = 'Sulfur';
