/**
 * The `file_tree` external pillar (Salt's `salt/pillar/file_tree.py`): under `root_dir`, the
 * folders `nodegroups/<group>/` of the master's nodegroups this minion is in, then
 * `hosts/<minion id>/`, become nested pillar keys; each file's name is a key and its text the
 * value (one trailing newline dropped unless `keep_newline`, a boolean or a list of globs).
 * Symlinked folders are followed only with `follow_dir_links`.
 */
import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type MinionMatchContext, matchType } from '../../../kernel/services.js';
import { fnmatch } from '../../../modules/_fnmatch.js';
import { defineExtPillar } from '../ext-kind.js';
import { mergePillar, type PillarData } from '../merge.js';
import type { PillarLog } from '../pillar-log.js';

interface TreeOptions {
  followDirLinks: boolean;
  keepNewline: boolean | readonly unknown[];
  log: PillarLog;
}

function stripNewline(prefix: string, name: string, keep: TreeOptions['keepNewline']): boolean {
  if (typeof keep === 'boolean') return !keep;
  const full = prefix === '.' ? name : join(prefix, name);
  return !keep.some((p) => fnmatch(full, String(p)));
}

function isDir(path: string, entry: Dirent, follow: boolean): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink() || !follow) return false;
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Salt's `_construct_pillar` of one folder. */
function construct(dir: string, prefix: string, o: TreeOptions, depth = 0): PillarData {
  const node: PillarData = {};
  if (depth > 64) return node;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    o.log.error({ dir, err: (err as Error).message }, 'file_tree: folder not readable');
    return node;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (isDir(path, e, o.followDirLinks)) {
      node[e.name] = construct(path, prefix === '.' ? e.name : join(prefix, e.name), o, depth + 1);
      continue;
    }
    try {
      if (!statSync(path).isFile()) throw new Error('not a regular file');
      let text = readFileSync(path, 'utf8');
      if (text.endsWith('\n') && stripNewline(prefix, e.name, o.keepNewline)) text = text.slice(0, -1);
      node[e.name] = text;
    } catch (err) {
      o.log.error({ path, err: (err as Error).message }, 'file_tree: file not read');
    }
  }
  return node;
}

function dirExists(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export const fileTree = defineExtPillar({
  name: 'file_tree',
  run(ctx, args, kwargs) {
    const rootDir = args[0] ?? kwargs.root_dir;
    if (typeof rootDir !== 'string' || !dirExists(rootDir)) {
      ctx.log.error(
        { root_dir: String(rootDir) },
        'file_tree: root_dir does not exist or is not a directory',
      );
      return {};
    }
    const keep = kwargs.keep_newline ?? false;
    if (typeof keep !== 'boolean' && !Array.isArray(keep)) {
      ctx.log.error(
        { root_dir: rootDir },
        'file_tree: keep_newline must be either True/False or a list of file globs',
      );
      return {};
    }
    const o: TreeOptions = {
      followDirLinks: kwargs.follow_dir_links === true,
      keepNewline: keep,
      log: ctx.log,
    };
    let pillar: PillarData = {};
    const groups = (ctx.opts.nodegroups ?? {}) as NonNullable<MinionMatchContext['nodegroups']>;
    const ngDir = join(rootDir, 'nodegroups');
    if (dirExists(ngDir) && Object.keys(groups).length > 0) {
      for (const group of readdirSync(ngDir)) {
        if (!Object.hasOwn(groups, group)) continue;
        let member = false;
        try {
          member = matchType('nodegroup', group, ctx.minionId, { grains: ctx.grains, nodegroups: groups });
        } catch {
          member = false;
        }
        if (member) pillar = mergePillar(pillar, construct(join(ngDir, group), '.', o), 'recurse');
      }
    }
    // a minion id is one path segment here
    if (ctx.minionId.includes('/') || ctx.minionId === '..' || ctx.minionId === '.') return pillar;
    const hostDir = join(rootDir, 'hosts', ctx.minionId);
    if (!dirExists(hostDir)) return pillar;
    return mergePillar(pillar, construct(hostDir, '.', o), 'recurse');
  },
});
