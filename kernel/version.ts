/** tsalt's own version, reported by `--version` and `test.version`. */
export const VERSION = '0.1.0';
/** The Salt release whose wire protocol and behaviour tsalt follows. */
export const SALT_COMPAT_VERSION = '3006.18';
