/**
 * What `pkgrepo.managed` compares on apt (Salt's `aptpkg._expand_repo_def` and the comparison
 * loop of `salt/states/pkgrepo.py`): the repo line as Salt would rebuild it (type, options
 * `arch=`/`signed-by=` only, uri, dist, comps) against the entry `pkg.get_repo` found.
 */

/** A repo as `pkg.get_repo` returns it (`{}` when absent). */
export type RepoView = Record<string, unknown>;

const TYPES = ['deb', 'deb-src', 'rpm', 'rpm-src'];

interface Parsed {
  disabled: boolean;
  type: string;
  uri: string;
  dist: string;
  comps: string[];
  architectures: string[];
  signedby: string;
}

function parse(line: string): Parsed {
  let text = line.trim();
  const p: Parsed = {
    disabled: false,
    type: '',
    uri: '',
    dist: '',
    comps: [],
    architectures: [],
    signedby: '',
  };
  if (text.startsWith('#')) {
    p.disabled = true;
    text = text.slice(1);
  }
  const hash = text.indexOf('#');
  if (hash > 0) text = text.slice(0, hash);
  let words = text.trim().split(/\s+/).filter(Boolean);
  if (!words.length || !TYPES.includes(words[0] ?? '') || words.length < 3) return p;
  const opts = /\[(.*=.*?)\]/.exec(line);
  if (words[1]?.startsWith('[') && opts) {
    const full = (opts[1] ?? '').split(/\s+/).filter(Boolean);
    for (const o of full) {
      const v = o.split('=').slice(1).join('=');
      if (o.startsWith('arch')) p.architectures.push(...v.split(','));
      else if (o.startsWith('signed-by')) p.signedby = v;
    }
    words = words.map((w) => w.replace(/^\[+|\]+$/g, '')).filter((w) => w && !full.includes(w));
  }
  [p.type = '', p.uri = '', p.dist = ''] = words;
  p.comps = words.slice(3);
  return p;
}

/**
 * The option names of a line's `[...]` in first-seen order (`arch`, `signedby`, others by
 * name): with a signed-by option, Salt 3006 writes these names, not the options, into the
 * line it compares, so such a repo never reads as already configured.
 */
function optionNames(line: string): string[] {
  const m = /\[(.*=.*?)\]/.exec(line);
  const names: string[] = [];
  for (const o of (m?.[1] ?? '').split(/\s+/).filter(Boolean)) {
    const n = o.startsWith('arch') ? 'arch' : o.startsWith('signed-by') ? 'signedby' : (o.split('=')[0] ?? o);
    if (!names.includes(n)) names.push(n);
  }
  return names;
}

/**
 * Salt's `_expand_repo_def` without PPAs: the repo's fields and the line Salt would write. With
 * python-apt (as Debian's Salt has it), an enabled entry of the same type, uri, dist and
 * architectures is reused: its own line, its components plus the missing wanted ones.
 */
export function expandRepoDef(
  repo: string,
  kwargs: Readonly<Record<string, unknown>>,
  existing: readonly RepoView[] = [],
): RepoView {
  const e = parse(repo);
  const list = (v: unknown): string[] =>
    String(v)
      .split(',')
      .map((x) => x.trim());
  if (kwargs.architectures !== undefined) e.architectures = list(kwargs.architectures);
  if (kwargs.comps !== undefined) e.comps = list(kwargs.comps);
  for (const k of ['uri', 'dist', 'signedby'] as const)
    if (typeof kwargs[k] === 'string') e[k] = kwargs[k] as string;
  if (kwargs.disabled !== undefined) e.disabled = Boolean(kwargs.disabled);
  // python-apt does not reuse an entry for a signed-by line (seen on Salt 3006.18 here)
  const same = existing.find(
    (x) =>
      !e.signedby &&
      !x.disabled &&
      x.type === e.type &&
      x.uri === e.uri &&
      x.dist === e.dist &&
      JSON.stringify([...new Set((x.architectures as string[]) ?? [])].sort()) ===
        JSON.stringify([...new Set(e.architectures)].sort()),
  );
  if (same) {
    const had = (same.comps as string[]) ?? [];
    const missing = e.comps.filter((c) => !had.includes(c));
    return {
      comps: missing.length ? [...new Set([...had, ...missing])].sort() : had,
      disabled: false,
      dist: e.dist,
      type: e.type,
      uri: e.uri,
      line: String(same.line ?? '').trim(),
      architectures: e.architectures,
      signedby: e.signedby,
    };
  }
  const opts: string[] = [];
  if (e.signedby) opts.push(...optionNames(repo));
  else if (e.architectures.length) opts.push(`arch=${e.architectures.join(',')}`);
  const parts = [
    ...(e.disabled ? ['#'] : []),
    e.type,
    ...(opts.length ? [`[${opts.join(' ')}]`] : []),
    e.uri,
    e.dist,
    e.comps.join(' '),
  ];
  return {
    comps: e.comps,
    disabled: e.disabled,
    dist: e.dist,
    type: e.type,
    uri: e.uri,
    line: parts.join(' ').trim(),
    architectures: e.architectures,
    signedby: e.signedby,
  };
}

const sortedWords = (line: string): string[] => {
  const w = line.split(/\s+/).filter(Boolean);
  return [...w.slice(0, 3), ...w.slice(3).sort()];
};

/** Salt's "already configured" test: every sanitized field matches the existing entry. */
export function sameRepo(
  sanitized: RepoView,
  pre: RepoView,
  kwargs: Readonly<Record<string, unknown>>,
): boolean {
  for (const [k, v] of Object.entries(sanitized)) {
    if (!(k in pre)) return false;
    const had = pre[k];
    if (k === 'comps') {
      if (
        JSON.stringify([...(v as string[])].sort()) !== JSON.stringify([...((had as string[]) ?? [])].sort())
      )
        return false;
    } else if (k === 'line') {
      if (sanitized.disabled) continue;
      const [body = '', , comments = ''] = String(had).split(/(#)/);
      if (JSON.stringify(sortedWords(String(v))) !== JSON.stringify(sortedWords(body.trim()))) return false;
      if ('comments' in kwargs) {
        const want = (
          Array.isArray(kwargs.comments) ? kwargs.comments.map(String) : [String(kwargs.comments)]
        )
          .join(' ')
          .trim();
        if (comments.trim() !== want) return false;
      }
    } else if (k === 'architectures' && (v as string[]).length) {
      const a = [...new Set(v as string[])].sort();
      const b = [...new Set((had as string[]) ?? [])].sort();
      if (JSON.stringify(a) !== JSON.stringify(b)) return false;
    } else if (k !== 'architectures' && String(v) !== String(had)) return false;
  }
  return true;
}
