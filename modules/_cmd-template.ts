/**
 * `template=` of the `cmd` runners (Salt's `cmdmod._render_cmd`): the command and the working
 * directory each go through the template engine, with `grains`, `pillar` (a fresh one, with the
 * `pillar=` override over it, when `pillarenv` or `pillar` is given), `opts`, `salt[...]` and
 * `saltenv` as variables, before anything runs.
 */
import { type ExecContext, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { fileClientOf } from './_file-client-of.js';
import { renderText } from './_file-template.js';

/** Salt's `TEMPLATE_REGISTRY`: the names `template=` may take; tsalt renders `jinja` of them. */
const SALT_ENGINES = new Set(['jinja', 'mako', 'py', 'wempy', 'genshi', 'cheetah']);

const isMap = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** What Salt's `to_str` takes: a text; anything else is its TypeError, an invocation error here. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  const kind = Array.isArray(value)
    ? 'list'
    : typeof value === 'number'
      ? Number.isInteger(value)
        ? 'int'
        : 'float'
      : typeof value === 'boolean'
        ? 'bool'
        : isMap(value)
          ? 'dict'
          : 'NoneType';
  throw new SALT_ERR_INVOCATION(`expected str, bytes, or bytearray not <class '${kind}'>`, {
    details: { kind: 'type' },
  });
}

/** The pillar the template sees: Salt's `__pillar__`, or `_gather_pillar` for `pillarenv`/`pillar=`. */
async function pillarFor(ctx: ExecContext, kwargs: Readonly<Record<string, unknown>>) {
  const override = kwargs.pillar;
  const given = (v: unknown) => v !== undefined && v !== null;
  if (!given(kwargs.pillarenv) && !given(override)) return undefined;
  const ask = given(kwargs.pillarenv) ? { pillarenv: kwargs.pillarenv } : {};
  const fresh = await ctx.call('pillar.items', [], ask);
  return { ...(isMap(fresh) ? fresh : {}), ...(isMap(override) ? override : {}) };
}

/** Renders `cmd` and `cwd` with engine `template`; throws Salt's errors for an engine it lacks. */
export async function renderCmd(
  ctx: ExecContext,
  template: unknown,
  cmd: unknown,
  cwd: string,
  saltenvArg: unknown,
  kwargs: Readonly<Record<string, unknown>>,
): Promise<{ cmd: string; cwd: string }> {
  const engine = pyStr(template);
  if (!SALT_ENGINES.has(engine))
    throw new SALT_ERR_EXEC_COMMAND(`Attempted to render file paths with unavailable engine ${engine}`);
  const cmdText = text(cmd);
  if (engine !== 'jinja')
    throw new SALT_ERR_EXEC_COMMAND(
      `Failed to execute cmd with error: the ${engine} template engine is not available in tsalt`,
    );
  // Salt's default is `__opts__["saltenv"]`, None on a minion, which templates see as None;
  // tsalt's templates see 'base' then (a salt:// import looks there in both)
  const saltenv = typeof saltenvArg === 'string' && saltenvArg ? saltenvArg : 'base';
  const pillar = await pillarFor(ctx, kwargs);
  const rctx = pillar ? (Object.create(ctx, { pillar: { value: pillar } }) as ExecContext) : ctx;
  const fc = fileClientOf(ctx);
  const render = (t: string) => renderText(rctx, fc, engine, t, '<cmd>', saltenv);
  return { cmd: await render(cmdText), cwd: await render(cwd) };
}
