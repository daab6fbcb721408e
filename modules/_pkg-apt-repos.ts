/**
 * apt's one-line sources (`/etc/apt/sources.list` and `sources.list.d/*.list`) for the apt
 * backend: Salt's `SourcesList`/`SourceEntry` fallback (used when python-apt is absent, as on
 * Salt's onedir builds) and `aptpkg.list_repos`, `get_repo`, `mod_repo`, `del_repo`.
 * deb822 `.sources` files are not read (Salt 3006 does not read them either); keys are put in
 * place by `_pkg-apt-modkeys.ts`; PPAs are not handled yet.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { useAptKey } from './_pkg-apt-keys.js';
import { modRepoKeys } from './_pkg-apt-modkeys.js';

/** The apt configuration folder (a test points it elsewhere). */
export const aptDir = { root: '/etc/apt' };

/** One line of a sources file. */
export interface SourceEntry {
  line: string;
  file: string;
  invalid: boolean;
  disabled: boolean;
  comment: string;
  type: string;
  uri: string;
  dist: string;
  comps: string[];
  architectures: string[];
  signedby: string;
}

interface Opt {
  full: string;
  value: string | string[];
}

/** The `[key=value ...]` options of a line, in order (Salt's `_get_opts`). */
function getOpts(line: string): Map<string, Opt> {
  const ret = new Map<string, Opt>();
  const m = /\[(.*=.*?)\]/.exec(line);
  if (!m) return ret;
  const arches: string[] = [];
  for (const opt of (m[1] ?? '').split(/\s+/).filter(Boolean)) {
    const value = opt.split('=').slice(1).join('=');
    if (opt.startsWith('arch')) {
      arches.push(...value.split(','));
      ret.set('arch', { full: opt, value: arches });
    } else if (opt.startsWith('signed-by')) ret.set('signedby', { full: opt, value });
    else ret.set(opt.split('=')[0] ?? opt, { full: opt, value });
  }
  return ret;
}

const TYPES = ['deb', 'deb-src', 'rpm', 'rpm-src'];

/** Parses one sources line (Salt's `_invalid` + `SourceEntry._parse_sources`). */
export function parseEntry(line: string, file = path.join(aptDir.root, 'sources.list')): SourceEntry {
  const e: SourceEntry = {
    line,
    file,
    invalid: false,
    disabled: false,
    comment: '',
    type: '',
    uri: '',
    dist: '',
    comps: [],
    architectures: [],
    signedby: '',
  };
  let text = line.trim();
  if (!text) return { ...e, invalid: true };
  if (text.startsWith('#')) {
    e.disabled = true;
    text = text.slice(1);
  }
  const hash = text.indexOf('#');
  if (hash > 0) {
    e.comment = text.slice(hash + 1);
    text = text.slice(0, hash);
  }
  let words = text.trim().split(/\s+/).filter(Boolean);
  if (!words.length || !TYPES.includes(words[0] ?? '') || words.length < 3) return { ...e, invalid: true };
  if (words[1]?.startsWith('[')) {
    if (!words.slice(1).some((w) => w.endsWith(']'))) return { ...e, invalid: true };
    const opts = getOpts(line);
    const arch = opts.get('arch');
    if (arch) e.architectures.push(...(arch.value as string[]));
    const sb = opts.get('signedby');
    if (sb) e.signedby = sb.value as string;
    words = words.map((w) => w.replace(/^\[+|\]+$/g, '')).filter(Boolean);
    for (const o of opts.values()) {
      const at = words.indexOf(o.full);
      if (at >= 0) words.splice(at, 1);
    }
  }
  e.type = words[0] ?? '';
  e.uri = words[1] ?? '';
  e.dist = words[2] ?? '';
  e.comps = words.slice(3);
  return e;
}

/** The line an entry is written back as (Salt's `SourceEntry.repo_line`). */
export function entryLine(e: SourceEntry): string {
  if (e.invalid) return e.line;
  const parts: string[] = [];
  if (e.disabled) parts.push('#');
  parts.push(e.type);
  const opts = getOpts(e.line);
  if (e.architectures.length)
    opts.set('arch', { full: `arch=${e.architectures.join(',')}`, value: e.architectures });
  if (e.signedby) opts.set('signedby', { full: `signed-by=${e.signedby}`, value: e.signedby });
  const ordered = [...opts.values()].map((o) => o.full).filter(Boolean);
  if (ordered.length) parts.push(`[${ordered.join(' ')}]`);
  parts.push(e.uri, e.dist, e.comps.join(' '));
  if (e.comment) parts.push(`#${e.comment}`);
  return `${parts.join(' ')}\n`;
}

/** Every line of every one-line sources file. */
export function readSources(): SourceEntry[] {
  const files: string[] = [path.join(aptDir.root, 'sources.list')];
  try {
    const d = path.join(aptDir.root, 'sources.list.d');
    for (const f of readdirSync(d).sort()) if (f.endsWith('.list')) files.push(path.join(d, f));
  } catch {
    // no sources.list.d
  }
  const out: SourceEntry[] = [];
  for (const file of files) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const lines = text.split(/(?<=\n)/);
    for (const line of lines) out.push(parseEntry(line, file));
  }
  return out;
}

/** Writes the entries back, file by file (Salt's `SourcesList.save`). */
function saveSources(entries: readonly SourceEntry[], touched: ReadonlySet<string>): void {
  const byFile = new Map<string, string>();
  for (const e of entries)
    byFile.set(e.file, (byFile.get(e.file) ?? '') + (e.invalid ? e.line : entryLine(e)));
  for (const file of touched) {
    const text = byFile.get(file) ?? '';
    const tmp = `${file}.tsalt-tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  }
}

/** Salt's `_skip_source`: invalid lines are skipped, but for a typed line with options. */
function skip(e: SourceEntry): boolean {
  if (!e.invalid) return false;
  if (e.uri && e.type && TYPES.includes(e.type)) return !/^\s*\S+\s+\[/.test(e.line);
  return true;
}

/** A repo's public form (Salt's `list_repos` entry). */
export function repoView(e: SourceEntry): Record<string, unknown> {
  return {
    file: e.file,
    comps: e.comps,
    disabled: e.disabled,
    dist: e.dist,
    type: e.type,
    uri: e.uri,
    line: e.line.trim(),
    architectures: e.architectures,
    signedby: e.signedby,
  };
}

/** Salt's `pkg.list_repos`: uri → its entries. */
export function listRepos(): Record<string, Record<string, unknown>[]> {
  const repos: Record<string, Record<string, unknown>[]> = {};
  for (const e of readSources()) {
    if (skip(e)) continue;
    const list = repos[e.uri] ?? [];
    list.push(repoView(e));
    repos[e.uri] = list;
  }
  return repos;
}

function splitRepo(repo: string): SourceEntry {
  return parseEntry(repo);
}

/** Salt's `pkg.get_repo`: the entry matching a repo line, or {}. */
export function getRepo(repo: string): Record<string, unknown> {
  const want = splitRepo(repo);
  for (const list of Object.values(listRepos())) {
    for (const sub of list) {
      if (
        sub.type === want.type &&
        pyStr(sub.uri).replace(/\/+$/, '') === want.uri.replace(/\/+$/, '') &&
        sub.dist === want.dist
      ) {
        if (!want.comps.length) return sub;
        if (want.comps.some((c) => (sub.comps as string[]).includes(c))) return sub;
      }
    }
  }
  return {};
}

/** Salt's `pkg.del_repo`: removes the repo's components; a file left empty in sources.list.d is deleted. */
export async function delRepo(
  ctx: ExecContext,
  repo: string,
  refresh: (ctx: ExecContext) => Promise<unknown>,
): Promise<string> {
  const all = readSources();
  const want = splitRepo(repo);
  const deletedFrom = new Map<string, number>();
  let kept = all;
  for (const source of all.filter((s) => !s.invalid)) {
    if (
      source.type === want.type &&
      JSON.stringify(source.architectures) === JSON.stringify(want.architectures) &&
      source.uri.replace(/\/+$/, '') === want.uri.replace(/\/+$/, '') &&
      source.dist === want.dist
    ) {
      const inter = source.comps.filter((c) => want.comps.includes(c));
      if (inter.length || (!source.comps.length && !want.comps.length)) {
        deletedFrom.set(source.file, 0);
        source.comps = source.comps.filter((c) => !want.comps.includes(c));
        if (!source.comps.length) kept = kept.filter((s) => s !== source);
      }
    }
  }
  if (!deletedFrom.size) throw new SALT_ERR_EXEC_COMMAND(`Repo ${repo} doesn't exist in the sources.list(s)`);
  saveSources(kept, new Set(deletedFrom.keys()));
  for (const s of kept)
    if (deletedFrom.has(s.file) && !s.invalid) deletedFrom.set(s.file, (deletedFrom.get(s.file) ?? 0) + 1);
  let ret = '';
  for (const [file, count] of deletedFrom) {
    let msg = `Repo '${repo}' has been removed from ${file}.\n`;
    if (count === 0 && file.includes('sources.list.d/') && existsSync(file)) {
      msg = `File ${file} containing repo '${repo}' has been removed.`;
      rmSync(file, { force: true });
    }
    ret += msg;
  }
  await refresh(ctx);
  return ret;
}

/** Salt's `pkg.mod_repo` for one-line sources: adds or changes the entry; returns `{repo: entry}`. */
export async function modRepo(
  ctx: ExecContext,
  repo: string,
  kwargs: Record<string, unknown>,
  refresh: (ctx: ExecContext) => Promise<unknown>,
): Promise<Record<string, Record<string, unknown>>> {
  const doRefresh = pyTruthy(kwargs.refresh_db ?? kwargs.refresh ?? true);
  if (repo.startsWith('ppa:'))
    throw new SALT_ERR_EXEC_COMMAND(`cannot parse "ppa:" style repo definitions: ${repo}`);
  const aptkey = useAptKey(pyTruthy(kwargs.aptkey ?? true));
  const entries = readSources();
  const want = parseEntry(repo);
  if (want.invalid)
    throw new SALT_ERR_INVOCATION(
      `Name ${repo} is not valid. This must be the complete repo entry as seen in the sources file`,
    );
  await modRepoKeys(ctx, kwargs, aptkey, want.signedby);
  const fullComps = new Set(want.comps.map((c) => c.trim()));
  let comps: string[];
  if (kwargs.comps !== undefined) {
    comps = pyStr(kwargs.comps)
      .split(',')
      .map((c) => c.trim());
    for (const c of comps) fullComps.add(c);
  } else comps = [...fullComps];
  const architectures =
    kwargs.architectures !== undefined ? pyStr(kwargs.architectures).split(',') : want.architectures;
  let disabled: boolean | undefined;
  if ('disabled' in kwargs) disabled = pyTruthy(kwargs.disabled);
  else if ('enabled' in kwargs) disabled = !pyTruthy(kwargs.enabled);
  let mod: SourceEntry | undefined;
  for (const s of entries) {
    if (s.invalid) continue;
    const repoMatches =
      s.type === want.type &&
      s.uri.replace(/\/+$/, '') === want.uri.replace(/\/+$/, '') &&
      s.dist === want.dist;
    const kwMatches = s.dist === kwargs.dist && s.type === kwargs.type;
    if (!repoMatches && !kwMatches) continue;
    if ([...fullComps].some((c) => s.comps.includes(c)) || !s.comps.length) mod = s;
    if (JSON.stringify(architectures) !== JSON.stringify(s.architectures)) mod = s;
    if (mod) break;
  }
  const file = typeof kwargs.file === 'string' ? kwargs.file : undefined;
  if (!mod) {
    mod = parseEntry(repo, file ?? path.join(aptDir.root, 'sources.list'));
    entries.push(mod);
  } else if (file) mod.file = file;
  if (kwargs.comments !== undefined)
    mod.comment = (Array.isArray(kwargs.comments) ? kwargs.comments.map(pyStr) : [pyStr(kwargs.comments)])
      .join(' ')
      .trim();
  mod.line = repo.endsWith('\n') ? repo : `${repo}\n`;
  mod.comps = comps;
  mod.architectures = architectures;
  if (disabled !== undefined) mod.disabled = disabled;
  if (typeof kwargs.dist === 'string') mod.dist = kwargs.dist;
  if (typeof kwargs.uri === 'string') mod.uri = kwargs.uri;
  if (mod.uri !== want.uri) {
    mod.uri = want.uri;
    mod.line = entryLine(mod);
  }
  const touched = new Set([mod.file]);
  saveSources(entries, touched);
  if (doRefresh) await refresh(ctx);
  return {
    [repo]: {
      architectures: mod.architectures,
      comps: mod.comps,
      disabled: mod.disabled,
      file: mod.file,
      type: mod.type,
      uri: mod.uri,
      line: mod.line,
      signedby: want.signedby,
    },
  };
}
