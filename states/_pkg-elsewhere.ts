/**
 * The `pkg` states apt has no backing for (Salt's `group_installed`, `patch_installed`,
 * `patch_downloaded` in `salt/states/pkg.py`): package groups and advisory patches exist on
 * yum/zypper only. Salt checks for `pkg.group_diff` / `pkg.list_patches`, which aptpkg lacks, and
 * answers result False with its fixed comment; these do the same. Also `pkg.downloaded`'s spec.
 */
import { pyTruthy } from '../kernel/python/index.js';
import { cleanKwargs } from '../modules/_invalid-kwargs.js';
import { defineState, type StateReturn } from '../plugins/states/index.js';
import { downloaded } from './_pkg-downloaded.js';

const unavailable = (name: string, comment: string): StateReturn => ({
  name,
  changes: {},
  result: false,
  comment,
});

const optStr = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));

export const groupInstalled = defineState({
  args: (z) => z.object({ name: z.string(), skip: z.unknown().optional(), include: z.unknown().optional() }),
  varkw: true,
  doc: 'Ensure that an entire package group is installed (yum/dnf groups; apt has none, so Salt refuses).',
  run: (_ctx, { name }) => unavailable(name, 'pkg.group_install not available for this platform'),
});

export const patchInstalled = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      advisory_ids: z.unknown().optional(),
      downloadonly: z.unknown().optional(),
    }),
  varkw: true,
  doc: 'Ensure the packages of the given advisory ids are installed (yum/zypper only; Salt refuses on apt).',
  run: (_ctx, { name }) =>
    unavailable(name, 'The pkg.patch_installed state is not available on this platform'),
});

export const patchDownloaded = defineState({
  args: (z) => z.object({ name: z.string(), advisory_ids: z.unknown().optional() }),
  varkw: true,
  doc: 'Ensure the packages of the given advisory ids are downloaded (yum/zypper only; Salt refuses on apt).',
  run: (_ctx, { name }) =>
    unavailable(name, 'The pkg.patch_downloaded state is not available on this platform'),
});

export const downloadedState = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      version: z.unknown().optional(),
      pkgs: z.unknown().optional(),
      fromrepo: z.unknown().optional(),
      ignore_epoch: z.unknown().optional(),
    }),
  varkw: true,
  doc: "Ensure the package (or pkgs) is downloaded to apt's cache, at the version when one is given.",
  run: (ctx, a, extra) =>
    downloaded(ctx, {
      name: a.name,
      version: optStr(a.version),
      pkgs: a.pkgs ?? null,
      fromrepo: optStr(a.fromrepo),
      ignore_epoch: a.ignore_epoch === undefined || a.ignore_epoch === null ? null : pyTruthy(a.ignore_epoch),
      kwargs: cleanKwargs(extra.kwargs),
    }),
});
