/**
 * Headless Chromium for the console's browser tests: Debian's `/usr/bin/chromium` driven by
 * playwright-core, with a fresh profile each launch. Missing Chromium fails the test (CI
 * installs it, see .ci/run) unless `TSALT_SKIP_BROWSER_TESTS=1`, which skips the tests.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** True when the browser tests are to be skipped (`TSALT_SKIP_BROWSER_TESTS=1`). */
export const skipBrowserTests = process.env.TSALT_SKIP_BROWSER_TESTS === '1';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium with a throwaway profile (`--user-data-dir`); `close()` removes it. */
export async function launchBrowser(viewport = { width: 1280, height: 800 }): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium), or set TSALT_SKIP_BROWSER_TESTS=1 to skip the browser tests`,
    );
  const profile = mkdtempSync(join(tmpdir(), 'tsalt-chromium-'));
  // playwright passes the profile as --user-data-dir itself
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
