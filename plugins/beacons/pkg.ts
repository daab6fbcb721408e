/**
 * The `pkg` beacon (Salt's `salt/beacons/pkg.py`): asks `pkg.version` and `pkg.latest_version`
 * for each listed package and fires `{pkg, version, status}` when its status (`installed`,
 * `upgrade`, `not-installed`) differs from the last run's; the first run only records.
 *
 *   beacons:
 *     pkg:
 *       - pkgs: [zsh, apache2]
 *       - refresh: True
 *
 * Salt tests `refresh` against the config list rather than its items, so it never refreshes;
 * this beacon asks `latest_version` with `refresh=False` the same way.
 */
import { defineBeacon } from '../../kernel/index.js';
import { pyTruthy } from '../../kernel/python/index.js';

type PkgStatus = 'installed' | 'upgrade' | 'not-installed';

export default defineBeacon({
  name: 'pkg',
  doc: 'Fire an event when a listed package is installed, removed or gets an upgrade.',
  validate(config) {
    if (!Array.isArray(config.pkgs)) return 'Configuration for pkg beacon requires list of pkgs.';
    return true;
  },
  async beacon(ctx, config) {
    const last = (ctx.state.get('status') as Map<string, PkgStatus> | undefined) ?? new Map();
    ctx.state.set('status', last);
    const events = [];
    for (const pkg of config.pkgs as unknown[]) {
      const name = String(pkg);
      const before = last.get(name);
      const installed = await ctx.call('pkg.version', [name], { use_context: false });
      let version: unknown = null;
      let now: PkgStatus = 'not-installed';
      if (pyTruthy(installed)) {
        version = installed;
        now = 'installed';
        const latest = await ctx.call('pkg.latest_version', [name], { refresh: false });
        if (pyTruthy(latest)) {
          version = latest;
          now = 'upgrade';
        }
      }
      last.set(name, now);
      if (before !== undefined && before !== now) events.push({ pkg: name, version, status: now });
    }
    return events;
  },
});
