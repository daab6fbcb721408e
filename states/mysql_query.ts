/**
 * Salt's `mysql_query` state module (`salt/states/mysql_query.py`): `run` executes a query in
 * a database (which must exist, unless `check_db_exists` is False) and keeps its result in a
 * file or a grain (`output`, `grain`, `key`), skipped when `overwrite` is False and the file or
 * grain is already there. The comment is Python's text of `mysql.query`'s return.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { PyTuple, pyRepr, pyStr, pyTruthy } from '../kernel/util.js';
import { name } from '../modules/_mysql-args.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { getMysqlError, mysqlCaller, stateConn } from './_mysql-state.js';

type QueryResult = Record<string, unknown> & { columns?: unknown[]; results?: unknown };

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();

/** The lines Salt writes to `output`: `col:value` for each field of each row, else `key:value`. */
function outputText(result: QueryResult): string {
  if (Array.isArray(result.results))
    return (result.results as Array<Record<string, unknown>>)
      .flatMap((row) => Object.entries(row).map(([col, val]) => `${col}:${pyStr(val)}\n`))
      .join('');
  return Object.entries(result)
    .map(([k, v]) => `${k}:${pyStr(v)}\n`)
    .join('');
}

const run = defineState({
  args: (z) =>
    z.object({
      name: name(z),
      database: name(z),
      query: name(z),
      output: z.unknown().default(null),
      grain: z.unknown().default(null),
      key: z.unknown().default(null),
      overwrite: z.unknown().default(true),
      check_db_exists: z.unknown().default(true),
      client_flags: z.unknown().default(null),
    }),
  varkw: true,
  doc: `Execute an arbitrary query on the specified database.

database: the database to run the query in; query: the query; output: a file to write the result to, or \`\`grain\`\` (with grain and key); overwrite: run even when the output file or grain is there; check_db_exists: require the database; client_flags: a list of client flags (\`\`multi_statements\`\`).`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const { database } = a;
    const ret: StateReturn = {
      name: a.name,
      changes: {},
      result: true,
      comment: `Database ${database} is already present`,
    };
    const flags = a.client_flags ?? [];
    if (!Array.isArray(flags))
      return { ...ret, comment: 'Error: client_flags must be a list.', result: false };
    const call = mysqlCaller(ctx, { ...stateConn(extra), client_flags: flags });
    if (pyTruthy(a.check_db_exists) && !(await call('db_exists', [database]))) {
      const err = getMysqlError(ctx);
      if (err !== null) return { ...ret, comment: err, result: false };
      return { ...ret, result: null, comment: `Database ${a.name} is not present` };
    }
    const grain = a.grain === null ? null : String(a.grain);
    const key = a.key === null ? null : String(a.key);
    const output = a.output === null ? null : String(a.output);
    const grainValue = async (): Promise<Record<string, unknown>> =>
      grain !== null && ((await ctx.call('grains.ls')) as string[]).includes(grain)
        ? ((await ctx.call('grains.get', [grain])) as Record<string, unknown>)
        : {};
    if (output === 'grain') {
      if (grain === null)
        return { ...ret, result: false, comment: "Error: output type 'grain' needs the grain parameter\n" };
      if (key === null) {
        if (!pyTruthy(a.overwrite) && ((await ctx.call('grains.ls')) as string[]).includes(grain))
          return { ...ret, comment: `No execution needed. Grain ${grain} already set` };
        if (ctx.test)
          return { ...ret, result: null, comment: `Query would execute, storing result in grain: ${grain}` };
      } else {
        const value = await grainValue();
        if (!pyTruthy(a.overwrite) && value && typeof value === 'object' && key in value)
          return { ...ret, comment: `No execution needed. Grain ${grain}:${key} already set` };
        if (ctx.test)
          return {
            ...ret,
            result: null,
            comment: `Query would execute, storing result in grain: ${grain}:${key}`,
          };
      }
    } else if (output !== null) {
      if (!pyTruthy(a.overwrite) && isFile(output))
        return { ...ret, comment: `No execution needed. File ${output} already set` };
      if (ctx.test)
        return { ...ret, result: null, comment: `Query would execute, storing result in file: ${output}` };
    } else if (ctx.test) return { ...ret, result: null, comment: 'Query would execute, not storing result' };

    const result = ((await call('query', [database, a.query])) || {}) as QueryResult;
    const shown: Record<string, unknown> = { ...result };
    if (Array.isArray(result.results)) {
      const cols = (result.columns ?? []).map(String);
      result.results = (result.results as unknown[][]).map((row) =>
        Object.fromEntries(cols.map((c, i) => [c, row[i]])),
      );
      shown.results = result.results;
    }
    if (Array.isArray(result.columns)) shown.columns = new PyTuple(result.columns);
    const comment = pyRepr(shown);
    const changes: Record<string, unknown> = {};
    if (output === 'grain' && grain !== null) {
      if (key === null) {
        await ctx.call('grains.setval', [grain, result]);
        changes.query = `Executed. Output into grain: ${grain}`;
      } else {
        const value = await grainValue();
        await ctx.call('grains.setval', [grain, { ...value, [key]: result }]);
        changes.query = `Executed. Output into grain: ${grain}:${key}`;
      }
    } else if (output !== null) {
      changes.query = `Executed. Output into ${output}`;
      writeFileSync(output, outputText(result));
    } else changes.query = 'Executed';
    return { ...ret, comment, changes };
  },
});

export default defineStateModule({
  name: 'mysql_query',
  doc: 'Execution of MySQL queries.',
  functions: { run },
});
