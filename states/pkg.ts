/**
 * Salt's `pkg` state module (`salt/states/pkg.py`): packages installed (by name, `pkgs` with
 * versions, or `sources` files), at their latest version, removed, purged, held and unheld,
 * and the whole system upgraded; `mod_watch` reruns installed/latest/removed/purged, and
 * `mod_aggregate` gathers a run's packages into one chunk (`state_aggregate`).
 * It drives the minion's `pkg` execution module.
 */

import { pyStr, pyTruthy } from '../kernel/util.js';
import {
  defineAggregate,
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { modBeacon } from './_mod-beacon.js';
import { pkgAggregate } from './_pkg-aggregate.js';
import { downloadedState, groupInstalled, patchDownloaded, patchInstalled } from './_pkg-elsewhere.js';
import { held, unheld } from './_pkg-hold.js';
import { installed } from './_pkg-install.js';
import { latest, uptodate } from './_pkg-latest.js';
import { uninstall } from './_pkg-remove.js';
import { checkRefresh, pkgModInit } from './_pkg-rtag.js';

const optStr = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : pyStr(v));
const optBool = (v: unknown): boolean | null => (v === undefined || v === null ? null : pyTruthy(v));

function runInstalled(
  ctx: StateContext,
  name: string,
  a: Record<string, unknown>,
  kwargs: Record<string, unknown>,
) {
  return installed(ctx, {
    name,
    version: optStr(a.version),
    refresh: checkRefresh(ctx.opts, a.refresh),
    fromrepo: optStr(a.fromrepo),
    skip_verify: pyTruthy(a.skip_verify),
    skip_suggestions: pyTruthy(a.skip_suggestions),
    pkgs: a.pkgs ?? undefined,
    sources: a.sources ?? undefined,
    allow_updates: pyTruthy(a.allow_updates),
    ignore_epoch: optBool(a.ignore_epoch),
    reinstall: pyTruthy(a.reinstall),
    kwargs,
  });
}

const removeArgs = (z: typeof import('zod').z) =>
  z.object({
    name: z.string(),
    version: z.unknown().optional(),
    pkgs: z.unknown().optional(),
    normalize: z.unknown().default(true),
    ignore_epoch: z.unknown().optional(),
  });

function runUninstall(
  ctx: StateContext,
  action: 'remove' | 'purge',
  name: string,
  a: Record<string, unknown>,
) {
  return uninstall(ctx, action, {
    name,
    version: optStr(a.version),
    pkgs: a.pkgs ?? undefined,
    ignore_epoch: optBool(a.ignore_epoch),
  });
}

function runLatest(
  ctx: StateContext,
  name: string,
  a: Record<string, unknown>,
  kwargs: Record<string, unknown>,
) {
  return latest(ctx, {
    name,
    refresh: checkRefresh(ctx.opts, a.refresh),
    fromrepo: optStr(a.fromrepo),
    skip_verify: pyTruthy(a.skip_verify),
    pkgs: a.pkgs ?? undefined,
    kwargs,
  });
}

export default defineStateModule({
  name: 'pkg',
  doc: 'Packages installed, at their latest version, removed, purged or held.',
  functions: {
    // Salt's `pkg.mod_init`: the runtime calls it once a run with the first pkg chunk; it answers a
    // boolean (whether it applies), not a state return
    mod_init: defineState({
      args: (z) => z.object({ low: z.record(z.string(), z.unknown()) }),
      doc: 'Set the refresh flag so that the first pkg.installed or pkg.latest of a run refreshes the package database.',
      run: (ctx, { low }) => pkgModInit(ctx.opts, low) as unknown as StateReturn,
    }),
    installed: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          version: z.unknown().optional(),
          refresh: z.unknown().optional(),
          fromrepo: z.unknown().optional(),
          // Salt's defaults, as sys.state_argspec shows them; each is read by truthiness
          skip_verify: z.unknown().default(false),
          skip_suggestions: z.unknown().default(false),
          pkgs: z.unknown().optional(),
          sources: z.unknown().optional(),
          allow_updates: z.unknown().default(false),
          pkg_verify: z.unknown().default(false),
          normalize: z.unknown().default(true),
          ignore_epoch: z.unknown().optional(),
          reinstall: z.unknown().default(false),
          update_holds: z.unknown().default(false),
        }),
      varkw: true,
      doc: 'Ensure the named packages (or pkgs, or sources) are installed, at a version when one is given.',
      run: (ctx, a, extra) => runInstalled(ctx, a.name, a, extra.kwargs),
    }),
    latest: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          refresh: z.unknown().optional(),
          fromrepo: z.unknown().optional(),
          skip_verify: z.unknown().default(false),
          pkgs: z.unknown().optional(),
          watch_flags: z.unknown().default(true),
        }),
      varkw: true,
      doc: 'Ensure the named packages are installed at their newest available version.',
      run: (ctx, a, extra) => runLatest(ctx, a.name, a, extra.kwargs),
    }),
    removed: defineState({
      args: removeArgs,
      varkw: true,
      doc: 'Ensure the named packages are not installed.',
      run: (ctx, a) => runUninstall(ctx, 'remove', a.name, a),
    }),
    purged: defineState({
      args: removeArgs,
      varkw: true,
      doc: 'Ensure the named packages are not installed and their configuration is gone.',
      run: (ctx, a) => runUninstall(ctx, 'purge', a.name, a),
    }),
    uptodate: defineState({
      args: (z) =>
        z.object({ name: z.string(), refresh: z.unknown().default(false), pkgs: z.unknown().optional() }),
      varkw: true,
      doc: 'Ensure every package (or the listed ones) is upgraded.',
      run: (ctx, a, extra) =>
        uptodate(ctx, { name: a.name, refresh: a.refresh, pkgs: a.pkgs, kwargs: extra.kwargs }),
    }),
    held: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          version: z.unknown().optional(),
          pkgs: z.unknown().optional(),
          replace: z.unknown().default(false),
        }),
      varkw: true,
      doc: 'Ensure the packages are held (not upgraded); replace: unhold the others.',
      run: (ctx, a) =>
        held(ctx, {
          name: a.name,
          version: optStr(a.version),
          pkgs: a.pkgs ?? undefined,
          replace: pyTruthy(a.replace),
        }),
    }),
    unheld: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          version: z.unknown().optional(),
          pkgs: z.unknown().optional(),
          all: z.unknown().default(false),
        }),
      varkw: true,
      doc: 'Ensure the packages are not held; all: unhold every package.',
      run: (ctx, a) =>
        unheld(ctx, {
          name: a.name,
          version: optStr(a.version),
          pkgs: a.pkgs ?? undefined,
          all: pyTruthy(a.all),
        }),
    }),
    downloaded: downloadedState,
    group_installed: groupInstalled,
    patch_installed: patchInstalled,
    patch_downloaded: patchDownloaded,
    mod_aggregate: defineAggregate(
      'Gather the packages of the pkg states of a run not yet run into this one (state_aggregate).',
      pkgAggregate,
    ),
    mod_watch: defineState({
      // Salt's mod_watch(name, **kwargs): `sfun` arrives among the keywords
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'What a watch requisite runs: the state function again (installed, latest, removed, purged).',
      run: (ctx, a, extra): Promise<StateReturn> | StateReturn => {
        const { sfun, ...kw } = extra.kwargs;
        switch (sfun) {
          case 'installed':
            return runInstalled(ctx, a.name, kw, kw);
          case 'latest':
            return runLatest(ctx, a.name, kw, kw);
          case 'removed':
            return runUninstall(ctx, 'remove', a.name, kw);
          case 'purged':
            return runUninstall(ctx, 'purge', a.name, kw);
          default:
            return {
              name: a.name,
              changes: {},
              comment: `pkg.${pyStr(sfun ?? 'None')} does not work with the watch requisite`,
              result: false,
            };
        }
      },
    }),
    mod_beacon: modBeacon({
      module: 'pkg',
      beacon: 'pkg',
      supported: ['installed', 'removed'],
      callsIt: 'mod_beacon',
      settings: (name, _sfun, _data, kwargs) => ({
        pkgs: 'pkgs' in kwargs ? kwargs.pkgs : [name],
        interval: 60,
      }),
    }),
  },
});
