import { describe, expect, it } from 'vitest';
import { execCtx } from '../states/_pkg-test-ctx.js';
import { matchVersion, repoVersions } from './_pkg-apt-avail.js';
import { canInstallPackages } from './_pkg-test-deb.js';

const call = (fun: string, args: unknown[] = [], kwargs: Record<string, unknown> = {}) =>
  execCtx().call(fun, args, kwargs);

describe('version comparisons in apt installs', () => {
  it('picks the first listed version that satisfies the comparison', () => {
    const listed = ['2.1-1', '2.0-1', '1:0.5-1', '1.5-2'];
    expect(matchVersion('<2.1', listed)).toBe('2.0-1');
    expect(matchVersion('>=2.0', listed)).toBe('2.1-1');
    expect(matchVersion('>3', listed)).toBe('1:0.5-1'); // the epoch wins
    expect(matchVersion('>2:0', listed)).toBeNull();
    expect(matchVersion('1.5-2', listed)).toBe('1.5-2');
    expect(matchVersion('>>1', listed)).toBeNull();
  });

  it('lists the versions apt-cache knows for a package', async () => {
    const dpkg = (await call('pkg.version', ['dpkg'])) as string;
    const got = await repoVersions(execCtx(), ['dpkg', 'tsalt-t-nosuchpkg']);
    expect(got.dpkg).toContain(dpkg);
    expect('tsalt-t-nosuchpkg' in got).toBe(false);
  });

  it.skipIf(!canInstallPackages())(
    'pkg.install reports a comparison nothing satisfies, as Salt does',
    async () => {
      const err = await call('pkg.install', ['tsalt-t-nosuchpkg'], {
        version: '>=1.0',
        refresh: false,
      }).catch((e: unknown) => e as Error & { details?: unknown });
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toBe('Problem encountered installing package(s)');
      expect((err as { details?: { errors?: unknown } }).details?.errors).toEqual([
        "No version matching 'tsalt-t-nosuchpkg>=1.0' could be found (available: None)",
      ]);
    },
  );
});
