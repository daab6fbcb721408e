import { SALT_COMPAT_VERSION, VERSION } from '../kernel/version.js';

/** `salt --version`: the tsalt version and the Salt release whose protocol it speaks. */
export function versionLine(prog: string): string {
  return `${prog} ${VERSION} (tsalt; Salt ${SALT_COMPAT_VERSION} protocol)`;
}

/** Prints the version and exits when `--version`/`-V` is given; call before importing anything heavy. */
export function handleVersionFlag(prog: string, argv: readonly string[]): void {
  if (argv.includes('--version') || argv.includes('-V')) {
    process.stdout.write(`${versionLine(prog)}\n`);
    process.exit(0);
  }
}
