// What `--version` prints, for the bin scripts: CommonJS, so that they answer without starting
// Node's ESM loader (~7 ms of a ~85 ms run). kernel/version.ts holds the same values and
// cli/version.ts the same format; kernel/version.test.ts checks that they agree.
const VERSION = '0.1.0';
const SALT_COMPAT_VERSION = '3006.18';
const SALT_COMPAT_CODENAME = 'Sulfur';

exports.versionLine = (prog) => `${prog} ${SALT_COMPAT_VERSION} (${SALT_COMPAT_CODENAME}; tsalt ${VERSION})`;
