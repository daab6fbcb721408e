/**
 * Salt's `git.config_unset` state (`salt/states/git.py`): the keys matching `name` (a regex
 * over the whole key name), or only their values matching `value_regex`, are not set in a
 * repository's config (or the user's, `global=True`); `all=True` removes every value of a
 * multivar. Comments and changes are Salt's.
 */
import { pyStr } from '../kernel/util.js';
import { cleanKwargs } from '../modules/_invalid-kwargs.js';
import type { StateContext, StateReturn } from '../plugins/states/index.js';
import { fail, isExecError, neutralTest, stripExc } from './_git-common.js';

type Matches = Record<string, string[]>;

export interface ConfigUnsetArgs {
  name: unknown;
  value_regex?: unknown;
  repo?: string | null;
  user?: string | null;
  password?: string | null;
  output_encoding?: string | null;
}

const listOf = (m: Matches) =>
  Object.entries(m)
    .map(([k, v]) => `${k} (${v.join(', ')})`)
    .join('; ');

export async function configUnset(
  ctx: StateContext,
  a: ConfigUnsetArgs,
  given: Record<string, unknown>,
): Promise<StateReturn> {
  const name = pyStr(a.name);
  const ret: StateReturn = { name, changes: {}, result: true, comment: 'No matching keys are set' };
  const kw = cleanKwargs(given);
  const global = kw.global ?? false;
  const all = kw.all ?? false;
  delete kw.global;
  delete kw.all;
  const invalid = Object.entries(kw).map(([k, v]) => `${k}=${pyStr(v)}`);
  if (invalid.length > 0)
    return fail(ret, `The following keyword arguments are not valid: ${invalid.join(', ')}`);
  if (!global && !a.repo) return fail(ret, "Non-global config options require the 'repo' argument to be set");
  const valueRegex = a.value_regex === undefined || a.value_regex === null ? null : pyStr(a.value_regex);
  const key = `^${name.replace(/^\^+/, '').replace(/\$+$/, '')}$`;
  const who = { user: a.user, password: a.password, output_encoding: a.output_encoding };
  const get = async (regex: string | null) =>
    (await ctx.call('git.config_get_regexp', [], {
      ...who,
      cwd: a.repo,
      key,
      value_regex: regex,
      ignore_retcode: true,
      global: global === true,
    })) as Matches;
  const preMatches = await get(valueRegex);
  if (Object.keys(preMatches).length === 0) return ret;
  if (!all) {
    const greedy = Object.fromEntries(Object.entries(preMatches).filter(([, v]) => v.length > 1));
    if (Object.keys(greedy).length > 0) {
      const what =
        valueRegex !== null
          ? "Multiple values are matched by value_regex for the following keys (set 'all' to True to force removal): "
          : "Multivar(s) matched by the key expression (set 'all' to True to force removal): ";
      return fail(ret, what + listOf(greedy));
    }
  }
  if (ctx.test) {
    ret.changes = preMatches;
    return neutralTest(ret, `${Object.keys(preMatches).length} key(s) would have value(s) unset`);
  }
  const pre = valueRegex === null ? preMatches : await get(null);
  const failed: string[] = [];
  for (const keyName of Object.keys(preMatches)) {
    try {
      await ctx.call('git.config_unset', [], {
        ...who,
        cwd: a.repo,
        key: name,
        value_regex: valueRegex,
        all: all === true,
        global: global === true,
      });
    } catch (err) {
      if (!isExecError(err)) throw err;
      ctx.log.error({}, `Failed to unset '${keyName}': ${stripExc(err)}`);
      failed.push(keyName);
    }
  }
  if (failed.length > 0)
    return fail(
      ret,
      `Error(s) occurred unsetting values for the following keys (see the minion log for details): ${failed.join(', ')}`,
    );
  const post = await get(null);
  const changes = ret.changes as Record<string, unknown>;
  for (const [keyName, values] of Object.entries(pre)) {
    if (!(keyName in post)) changes[keyName] = values;
    const unset = values.filter((v) => !(post[keyName] ?? []).includes(v));
    if (unset.length > 0) changes[keyName] = unset;
  }
  const postMatches = valueRegex === null ? post : await get(valueRegex);
  if (Object.keys(postMatches).length > 0)
    return fail(ret, `Failed to unset value(s): ${listOf(postMatches)}`);
  ret.comment = 'Value(s) successfully unset';
  return ret;
}
