/**
 * Runs the configured external pillars in order (Salt's `Pillar.ext_pillar`): a malformed
 * `ext_pillar` option or a failing source goes to `_errors` and the other sources still run; an
 * unknown name is logged and skipped, as in Salt.
 */
import { isMapping } from '../../modules/_traverse.js';
import type { ExtPillarContext, ExtPillarDef } from './ext-kind.js';
import { mergePillar, type PillarData } from './merge.js';
import { errorText } from './pillar-log.js';

export interface ExtPillarRun {
  extPillar: unknown;
  available: ReadonlyMap<string, ExtPillarDef>;
  strategy: string;
  mergeLists: boolean;
  renderer: string;
  pillarOverride: PillarData;
  ctx: Omit<ExtPillarContext, 'pillar'>;
}

const MALFORMED = 'The "ext_pillar" option is malformed';

/** The pillar with every external source merged in, and the errors met. */
export async function runExtPillars(
  run: ExtPillarRun,
  start: PillarData,
  errors: string[],
): Promise<PillarData> {
  const { extPillar, ctx } = run;
  const merge = (a: PillarData, b: PillarData) =>
    mergePillar(a, b, run.strategy, run.mergeLists, run.renderer);
  if (!Array.isArray(extPillar)) {
    errors.push(MALFORMED);
    ctx.log.error({}, MALFORMED);
    return start;
  }
  let pillar = Object.keys(run.pillarOverride).length ? merge(start, run.pillarOverride) : start;
  for (const entry of extPillar) {
    if (!isMapping(entry)) {
      errors.push(MALFORMED);
      ctx.log.error({}, MALFORMED);
      return {};
    }
    for (const [name, val] of Object.entries(entry)) {
      const def = run.available.get(name);
      if (!def) {
        ctx.log.error({ ext_pillar: name }, `Specified ext_pillar interface ${name} is unavailable`);
        continue;
      }
      try {
        const args = isMapping(val) ? [] : Array.isArray(val) ? val : [val];
        const kwargs = isMapping(val) ? val : {};
        const ext = await def.run({ ...ctx, pillar }, args, kwargs);
        if (isMapping(ext) && Object.keys(ext).length > 0) pillar = merge(pillar, ext);
      } catch (err) {
        errors.push(`Failed to load ext_pillar ${name}: ${errorText(err)}`);
        ctx.log.error(
          { ext_pillar: name, err: errorText(err) },
          `Exception caught loading ext_pillar '${name}'`,
        );
      }
    }
  }
  return pillar;
}
