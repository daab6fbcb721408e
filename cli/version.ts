import { SALT_COMPAT_CODENAME, SALT_COMPAT_VERSION, VERSION } from '../kernel/version.js';

/** `salt --version`: Salt's line for the release tsalt follows, tsalt's version beside it. */
export function versionLine(prog: string): string {
  return `${prog} ${SALT_COMPAT_VERSION} (${SALT_COMPAT_CODENAME}; tsalt ${VERSION})`;
}

/** Prints the version and exits when `--version`/`-V` is given; call before importing anything heavy. */
export function handleVersionFlag(prog: string, argv: readonly string[]): void {
  if (argv.includes('--version') || argv.includes('-V')) {
    process.stdout.write(`${versionLine(prog)}\n`);
    process.exit(0);
  }
}
