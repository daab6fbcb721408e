/**
 * The shape all of Salt's x509_v2 `*_managed` states share: test the file's metadata with a
 * `file.managed` sub-run, read what is there, decide the changes, then write PEM through
 * `file.managed` (or DER next to it) and report each `file.managed` run as a `sub_state_run`.
 */
import { lstatSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import type { StateContext, StateReturn } from '../plugins/states/index.js';

type Kwargs = Record<string, unknown>;

/** The keywords Salt's x509 states hand on to file.managed. */
const FILE_ARGS = new Set([
  'user',
  'group',
  'mode',
  'attrs',
  'makedirs',
  'dir_mode',
  'backup',
  'create',
  'follow_symlinks',
  'check_cmd',
  'tmp_dir',
  'tmp_ext',
  'selinux',
  'encoding',
  'encoding_errors',
  'win_owner',
  'win_perms',
  'win_deny_perms',
  'win_inheritance',
  'win_perms_reset',
]);

/** Salt's `_split_file_kwargs`: file.managed's keywords (with show_changes off) and the rest. */
export function splitFileArgs(kwargs: Kwargs): { fileArgs: Kwargs; rest: Kwargs } {
  const fileArgs: Kwargs = { show_changes: false };
  const rest: Kwargs = {};
  for (const [k, v] of Object.entries(kwargs)) {
    if (k.startsWith('__')) continue;
    if (FILE_ARGS.has(k)) fileArgs[k] = v;
    else rest[k] = v;
  }
  return { fileArgs, rest };
}

/** Python's repr of a list of strings, as Salt prints unknown keywords. */
export const pyList = (xs: string[]): string => `[${xs.map((x) => `'${x}'`).join(', ')}]`;

/** What a state found in the file: the changes it wants and whether something readable was there. */
export interface Inspection {
  changes: Kwargs;
  current: boolean;
}

export interface ManagedSpec {
  name: string;
  /** What the state manages, as its comments name it: `certificate`, `private key`, ... */
  noun: string;
  fileArgs: Kwargs;
  /** Whether the new contents are DER (base64 from `produce`) rather than PEM text. */
  binary: boolean;
  /** Reads the file (at its real path when it exists) into the changes. */
  inspect(realName: string, exists: boolean, replace: boolean): Promise<Inspection>;
  /** The new contents for these changes: PEM text, or base64 DER when binary. */
  produce(changes: Kwargs): Promise<string>;
}

/** Runs file.managed for `name` as Salt's `_file_managed` does (state.single, test forced on request). */
async function fileManaged(
  ctx: StateContext,
  name: string,
  args: Kwargs,
  test: boolean,
): Promise<StateReturn> {
  if (!ctx.states) throw new SALT_ERR_EXEC_COMMAND('The state functions are not available here');
  return ctx.states.call('file.managed', { name, ...args }, { test: test || ctx.test, saltenv: ctx.saltenv });
}

/** Adds a file.managed run to the return as Salt's `_add_sub_state_run`. */
function addSub(ctx: StateContext, ret: StateReturn, sub: StateReturn): void {
  const entry: Kwargs = {
    ...sub,
    low: { name: ret.name, state: 'file', __id__: ctx.low.__id__, fun: 'managed' },
  };
  const list = (ret.sub_state_run as Kwargs[] | undefined) ?? [];
  list.push(entry);
  ret.sub_state_run = list;
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return lstatSync(realpathSync(p)).isFile();
  } catch {
    return false;
  }
}

/** Whether an error is one Salt's states turn into a failed return (not a crash). */
export const isSaltError = (e: unknown): e is Error =>
  e instanceof SALT_ERR_EXEC_COMMAND || e instanceof SALT_ERR_INVOCATION;

/** Whether a load error means "not this kind of file" (Salt then replaces the file). */
const unreadable = (err: unknown): boolean =>
  isSaltError(err) &&
  /Could not deserialize binary data|Could not load PEM-encoded|Could not load DER-encoded/.test(err.message);

/**
 * The frame every certificate, CSR and CRL `inspect` shares: a missing file is `created`, one
 * that does not load as `load`'s kind is `replaced`; `compare` adds the changes of one that
 * loads and says whether Salt counts what it found as current.
 */
export async function inspectLoaded<T>(
  name: string,
  found: { real: string; exists: boolean; replaced: boolean },
  load: (real: string) => T,
  compare: (cur: T, changes: Kwargs) => boolean | Promise<boolean>,
): Promise<Inspection> {
  const changes: Kwargs = {};
  let current = false;
  let replace = found.replaced;
  if (!found.exists) changes.created = name;
  else {
    let cur: T | undefined;
    try {
      cur = load(found.real);
    } catch (err) {
      if (!unreadable(err)) throw err;
      replace = true;
    }
    if (cur !== undefined) current = await compare(cur, changes);
  }
  if (replace) changes.replaced = name;
  return { changes, current };
}

/** The whole managed-file run of one x509 state. */
export async function runManaged(ctx: StateContext, spec: ManagedSpec): Promise<StateReturn> {
  const { name, noun, fileArgs } = spec;
  const ret: StateReturn = {
    name,
    changes: {},
    result: true,
    comment: `The ${noun} is in the correct state`,
  };
  try {
    const fileTest = await fileManaged(ctx, name, { ...fileArgs, replace: false }, true);
    if (fileTest.result === false) {
      addSub(ctx, ret, fileTest);
      return { ...ret, result: false, comment: 'Problem while testing file.managed changes, see its output' };
    }
    if (String(fileTest.comment ?? '').includes('is not present and is not set for creation')) {
      addSub(ctx, ret, fileTest);
      return ret;
    }
    let realName = name;
    let replace = false;
    if (isLink(name)) {
      if (fileArgs.follow_symlinks ?? true) realName = realpathSync(name);
      else {
        rmSync(name, { force: true });
        replace = true;
      }
    }
    const found = await spec.inspect(realName, isFile(realName), replace);
    const changes = found.changes;
    const changed = Object.keys(changes).length > 0;
    const fileChanged = Object.keys(fileTest.changes ?? {}).length > 0;
    if (!changed && fileTest.result && !fileChanged) {
      addSub(ctx, ret, fileTest);
      return ret;
    }
    ret.changes = changes;
    const verb = found.current && changed ? 'recreate' : 'create';
    if (ctx.test) {
      if (changed) Object.assign(ret, { result: null, comment: `The ${noun} would have been ${verb}d` });
      addSub(ctx, ret, fileTest);
      return ret;
    }
    let contents: string | undefined;
    if (changed) {
      contents = await spec.produce(changes);
      ret.comment = `The ${noun} has been ${verb}d`;
      if (spec.binary) {
        const fm = await fileManaged(ctx, name, { ...fileArgs, replace: false }, false);
        addSub(ctx, ret, fm);
        if (!checkFile(fm, ret, found.current)) return ret;
        // file.managed cannot write bytes: it made the file, the DER goes in over it
        writeFileSync(realName, Buffer.from(contents, 'base64'));
      }
    }
    if (!changed || !spec.binary) {
      const put = !spec.binary && changed;
      const args = { ...fileArgs, replace: put, ...(put ? { contents } : {}) };
      const fm = await fileManaged(ctx, name, args, false);
      addSub(ctx, ret, fm);
      if (!checkFile(fm, ret, found.current)) return ret;
    }
  } catch (err) {
    if (!isSaltError(err)) throw err;
    return { ...ret, result: false, comment: err.message, changes: {} };
  }
  return ret;
}

function checkFile(fm: StateReturn, ret: StateReturn, current: boolean): boolean {
  if (fm.result !== false) return true;
  Object.assign(ret, {
    result: false,
    comment: `Could not ${current ? 'update' : 'create'} file, see file.managed output`,
    changes: {},
  });
  return false;
}
