/**
 * The mine's function list on a minion (Salt's `salt.utils.mine` and `mine.update`'s first
 * half): `mine_functions` merged from the minion config, the pillar's `master` key and the
 * pillar (the config wins, as Salt's `config.merge`), each entry parsed into the function to
 * run, its arguments and its minion-side ACL, and run.
 */
import type { ExecContext } from '../kernel/index.js';
import { deepCopy, isMapping } from './_traverse.js';

/** One `mine_functions` entry, parsed (Salt's `parse_function_definition`). */
export interface MineFunction {
  /** The mine name the data is stored under. */
  alias: string;
  /** The function to run: `mine_function`, else the alias. */
  fun: string;
  /** Whether `mine_function` named it. */
  named: boolean;
  args: unknown[];
  kwargs: Record<string, unknown>;
  allowTgt?: unknown;
  allowTgtType?: unknown;
}

/** Parses one entry: a mapping is keywords, a list is arguments and keyword mappings. */
export function parseMineFunction(alias: string, definition: unknown): MineFunction {
  const args: unknown[] = [];
  let kwargs: Record<string, unknown> = {};
  if (isMapping(definition)) kwargs = { ...definition };
  else if (Array.isArray(definition)) {
    for (const item of definition) {
      if (isMapping(item)) Object.assign(kwargs, item);
      else args.push(item);
    }
  }
  const { mine_function, allow_tgt, allow_tgt_type, ...rest } = kwargs;
  const out: MineFunction = {
    alias,
    fun: typeof mine_function === 'string' && mine_function ? mine_function : alias,
    named: Boolean(mine_function),
    args,
    kwargs: rest,
  };
  if (allow_tgt) out.allowTgt = allow_tgt;
  if (allow_tgt && allow_tgt_type) out.allowTgtType = allow_tgt_type;
  return out;
}

/** A top-level minion option, or one a plugin option set keeps in `extra`. */
function option(ctx: ExecContext, name: string): unknown {
  if (ctx.opts[name] !== undefined) return ctx.opts[name];
  const extra = ctx.opts.extra;
  return isMapping(extra) ? extra[name] : undefined;
}

/** `config.merge('mine_functions', {})`: the minion config over the pillar's `master` key over the pillar. */
export function configuredMineFunctions(ctx: ExecContext): Record<string, unknown> {
  const pillar = isMapping(ctx.opts.pillar) ? ctx.opts.pillar : {};
  const master = isMapping(pillar.master) ? pillar.master : {};
  let merged: Record<string, unknown> | undefined;
  for (const source of [option(ctx, 'mine_functions'), master.mine_functions, pillar.mine_functions]) {
    if (!isMapping(source)) continue;
    merged = { ...(deepCopy(source) as Record<string, unknown>), ...(merged ?? {}) };
  }
  return merged ?? {};
}

/** Whether the minion runs without a master (Salt's mine checks `file_client: local`). */
export function mineIsLocal(ctx: ExecContext): boolean {
  return ctx.opts.file_client === 'local' || ctx.opts.local === true;
}

/** Whether `fun` can run here; logs Salt's error when not. */
export async function mineFunctionAvailable(ctx: ExecContext, fun: string): Promise<boolean> {
  if (await ctx.functions.get(fun)) return true;
  ctx.log.error(`Function ${fun} in mine_functions not available`);
  return false;
}
