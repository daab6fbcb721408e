/**
 * Salt's `debconf` execution module (`salt/modules/debconfmod.py`): read and preseed answers to
 * Debian's debconf questions with debconf-utils' `debconf-get-selections` and
 * `debconf-set-selections` (run as argv, never through a shell). Debian family only.
 */
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { runProcess } from './_spawn.js';
import { which } from './_which.js';

type Selection = [question: string, type: string, value: string];

async function run(
  ctx: ExecContext,
  program: string,
  args: readonly string[],
  stdin: Buffer | null,
): Promise<string> {
  const r = await runProcess({
    argv: [which(program) ?? program, ...args],
    cwd: '/',
    env: Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
    ),
    stdin,
    timeoutMs: 120_000,
    signal: ctx.signal,
  });
  if (r.returncode !== 0) ctx.log.debug({ stderr: r.stderr.toString('utf8') }, `${program} failed`);
  return r.stdout.toString('utf8').trimEnd();
}

/** Salt's line pattern: package (not a comment), question, type, then the rest of the line. */
const LINE = /^([^#]\S+)[\t ]+(\S+)[\t ]+(\S+)[\t ]+([^\n]*)$/gm;

/** Salt's `get_selections`: `{package: [[question, type, value], ...]}` in output order. */
export async function getSelections(
  ctx: ExecContext,
  fetchempty = true,
): Promise<Record<string, Selection[]>> {
  const out = await run(ctx, 'debconf-get-selections', [], null);
  const selections: Record<string, Selection[]> = {};
  for (const m of out.matchAll(LINE)) {
    const [, pkg = '', question = '', type = '', value = ''] = m;
    if (!fetchempty && value === '') continue;
    const list = selections[pkg] ?? [];
    list.push([question, type, value]);
    selections[pkg] = list;
  }
  return selections;
}

/** Feeds a selections file (`path`) or text to debconf-set-selections. */
async function setSelections(ctx: ExecContext, from: { path: string } | { text: string }): Promise<void> {
  if ('path' in from) await run(ctx, 'debconf-set-selections', [from.path], null);
  else await run(ctx, 'debconf-set-selections', [], Buffer.from(from.text, 'utf8'));
}

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' debconf.${example}`;

async function setFile(ctx: ExecContext, path: string, saltenv: string): Promise<boolean> {
  const cached = await ctx.call('cp.cache_file', [path, saltenv]);
  if (typeof cached !== 'string' || cached === '') return false;
  await setSelections(ctx, { path: cached });
  return true;
}

export default defineModule({
  name: 'debconf',
  doc: "Support for Debian's debconf: read and preseed the answers to packages' configuration questions (needs debconf-utils).",
  virtual: (ctx) => {
    if (ctx.grains.os_family !== 'Debian')
      return { ok: false, reason: 'The debconfmod module could not be loaded: unsupported OS family' };
    if (which('debconf-get-selections') === null)
      return {
        ok: false,
        reason: 'The debconfmod module could not be loaded: debconf-utils is not installed.',
      };
    return true;
  },
  functions: {
    get_selections: defineFunction({
      args: (z) => z.object({ fetchempty: z.unknown().default(true) }),
      doc: `Answers to debconf questions for all packages, as {'package': [['question', 'type', 'value'], ...]}.${cli('get_selections')}`,
      run: (ctx, a) => getSelections(ctx, Boolean(a.fetchempty)),
    }),
    show: defineFunction({
      args: (z) => z.object({ name: z.union([z.string(), z.number()]).transform(String) }),
      doc: `Answers to debconf questions for a package, as [['question', 'type', 'value'], ...]; None when debconf does not know the package.${cli('show <package name>')}`,
      run: async (ctx, a) => (await getSelections(ctx))[a.name] ?? null,
    }),
    set: defineFunction({
      pyName: 'set_',
      args: (z) =>
        z.object({ package: z.unknown(), question: z.unknown(), type: z.unknown(), value: z.unknown() }),
      varargs: true,
      doc: `Set the answer to a debconf question for a package; extra arguments are joined to the value with spaces.${cli('set <package> <question> <type> <value> [<value> ...]')}`,
      run: async (ctx, a, extra) => {
        const value = [a.value, ...extra.args].map(pyStr).join(' ');
        await setSelections(ctx, {
          text: `${pyStr(a.package)} ${pyStr(a.question)} ${pyStr(a.type)} ${value}`,
        });
        return true;
      },
    }),
    set_file: defineFunction({
      args: (z) => z.object({ path: z.string(), saltenv: z.string().default('base') }),
      varkw: true,
      doc: `Set answers to debconf questions from a file (a salt:// URL, a URL or a local path).${cli('set_file salt://pathto/pkg.selections')}`,
      run: (ctx, a) => setFile(ctx, a.path, a.saltenv),
    }),
    set_template: defineFunction({
      args: (z) =>
        z.object({
          path: z.string(),
          template: z.string(),
          context: z.unknown(),
          defaults: z.unknown(),
          saltenv: z.string().default('base'),
        }),
      varkw: true,
      doc: `Set answers to debconf questions from a template: path is rendered with the template engine, context and defaults as variables.${cli('set_template salt://pathto/pkg.selections.jinja jinja None None')}`,
      run: async (ctx, a, extra) => {
        const vars = {
          ...(a.defaults as Record<string, unknown> | null),
          ...(a.context as Record<string, unknown> | null),
        };
        const rendered = await ctx.call('cp.get_template', [a.path, null], {
          template: a.template,
          saltenv: a.saltenv,
          ...extra.kwargs,
          ...vars,
        });
        if (typeof rendered !== 'string' || rendered === '') return false;
        await setSelections(ctx, { path: rendered });
        return true;
      },
    }),
  },
});
