/**
 * Salt's `http` state module (`salt/states/http.py`): `http.query` checks a URL's text (a
 * string or a Python regular expression) and status (one, a list or a pattern) through the
 * `http` execution module; `http.wait_for_successful_query` repeats it until it succeeds or
 * `wait_for` seconds pass. The query's own data is returned under `data`, as Salt's.
 */
import { pyStr } from '../kernel/util.js';
import { abortableSleep } from '../modules/_abort.js';
import { pyRegex } from '../modules/_file-edit.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

interface QueryArgs {
  name: string;
  match?: unknown;
  match_type: string;
  status?: unknown;
  status_type: string;
  wait_for?: unknown;
}

const search = (pattern: unknown, text: unknown): boolean => pyRegex(pyStr(pattern)).test(pyStr(text));

/** Salt's `http.query` state: the checks, in Salt's order, with its comments. */
async function query(ctx: StateContext, a: QueryArgs, extra: Record<string, unknown>): Promise<StateReturn> {
  const ret: StateReturn = { name: a.name, result: null, comment: '', changes: {}, data: {} };
  if ((a.match === undefined || a.match === null) && (a.status === undefined || a.status === null)) {
    return {
      ...ret,
      result: false,
      comment: ' Either match text (match) or a status code (status) is required.',
    };
  }
  const kwargs: Record<string, unknown> = { decode: false, ...extra, text: true, status: true };
  if (ctx.test) kwargs.test = true;
  const data = (
    a.wait_for
      ? await ctx.call('http.wait_for_successful_query', [a.name], { ...kwargs, wait_for: a.wait_for })
      : await ctx.call('http.query', [a.name], kwargs)
  ) as Record<string, unknown> | null;
  const got = data ?? {};
  let comment = '';
  let result: boolean | null = null;
  if (a.match !== undefined && a.match !== null) {
    if (a.match_type === 'string') {
      const found = pyStr(got.text ?? '').includes(pyStr(a.match));
      result = found;
      comment += ` Match text "${pyStr(a.match)}" was ${found ? '' : 'not '}found.`;
    } else if (a.match_type === 'pcre') {
      const found = search(a.match, got.text ?? '');
      result = found;
      comment += ` Match pattern "${pyStr(a.match)}" was ${found ? '' : 'not '}found.`;
    }
  }
  if (a.status !== undefined && a.status !== null) {
    const status = pyStr(got.status ?? '');
    if (a.status_type === 'list') {
      for (const s of Array.isArray(a.status) ? a.status : [...pyStr(a.status)]) {
        if (status === pyStr(s)) {
          comment += ` Status ${pyStr(s)} was found.`;
          if (result === null) result = true;
        }
      }
      if (result !== true) {
        comment += ` Statuses ${pyStr(a.status)} were not found.`;
        result = false;
      }
    } else if (a.status_type === 'pcre') {
      if (search(a.status, status)) {
        comment += ` Status pattern "${pyStr(a.status)}" was found.`;
        if (result === null) result = true;
      } else {
        comment += ` Status pattern "${pyStr(a.status)}" was not found.`;
        result = false;
      }
    } else if (a.status_type === 'string') {
      if (status === pyStr(a.status)) {
        comment += ` Status ${pyStr(a.status)} was found.`;
        if (result === null) result = true;
      } else {
        comment += ` Status ${pyStr(a.status)} was not found.`;
        result = false;
      }
    }
  }
  comment = comment.trim();
  if (ctx.test) {
    result = null;
    comment += ' (TEST MODE';
    if ('test_url' in extra) comment += `, TEST URL WAS: ${pyStr(extra.test_url)}`;
    comment += ')';
  }
  return { ...ret, result, comment, data };
}

export default defineStateModule({
  name: 'http',
  doc: 'HTTP monitoring states: perform an HTTP query and check its text or status.',
  functions: {
    query: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          match: z.unknown().optional(),
          match_type: z.string().default('string'),
          status: z.unknown().optional(),
          status_type: z.string().default('string'),
          wait_for: z.unknown().optional(),
        }),
      varkw: true,
      doc: "Perform an HTTP query and statefully return the result.\n\nname: the URL.\nmatch: text to find in the response; match_type: 'string' (default) or 'pcre'.\nstatus: the status code wanted; status_type: 'string' (default), 'list' or 'pcre'.\nwait_for: retry for this many seconds (http.wait_for_successful_query).\nOther keywords go to http.query.",
      run: (ctx, a, extra) => query(ctx, a, extra.kwargs),
    }),
    wait_for_successful_query: defineState({
      args: (z) => z.object({ name: z.string(), wait_for: z.number().default(300) }),
      varkw: true,
      doc: 'Like http.query, but repeat and wait until match/match_type or status is fulfilled, for up to wait_for seconds (request_interval: seconds between tries).',
      async run(ctx, a, extra) {
        const { match, match_type, status, status_type, ...rest } = extra.kwargs;
        const args: QueryArgs = {
          name: a.name,
          match,
          match_type: typeof match_type === 'string' ? match_type : 'string',
          status,
          status_type: typeof status_type === 'string' ? status_type : 'string',
        };
        const start = Date.now();
        for (;;) {
          let ret: StateReturn | undefined;
          let caught: unknown;
          try {
            ret = await query(ctx, args, rest);
            if (ret.result) return ret;
          } catch (err) {
            caught = err;
          }
          if (Date.now() > start + a.wait_for * 1000) {
            if (!ret && caught) throw caught;
            return ret as StateReturn;
          }
          if ('request_interval' in rest)
            await abortableSleep(
              Number(rest.request_interval) * 1000,
              ctx.signal,
              'http.wait_for_successful_query',
            );
          else if (ctx.signal.aborted) return ret as StateReturn;
        }
      },
    }),
  },
});
