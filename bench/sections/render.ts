/** Issue 19's render figure: a formula's map.jinja and init.sls, tsalt vs Salt 3006's Jinja on this machine. */
import { REPO } from '../../tools/local-cluster.js';
import { renderBench } from '../render-formula.js';
import { details, print, report } from '../report.js';

export async function renderSection(quick: boolean): Promise<void> {
  const r = await renderBench(REPO, quick ? 50 : 200);
  details.render = r;
  for (const [file, ms] of Object.entries(r.tsalt)) {
    const salt = r.salt?.[file];
    report({
      name: `render: ${file} (tsalt jinja)`,
      value: ms,
      unit: 'ms',
      method:
        salt === undefined
          ? `${r.renders} renders of test/fixtures/renderers/formula/${file}; Salt's source not found for the comparison`
          : `${r.renders} renders; Salt 3006 Jinja on the same file ${salt.toFixed(2)} ms (tsalt/Salt = ${(ms / salt).toFixed(2)})`,
    });
  }
  if (!r.salt) print("(set TSALT_SALT_SRC to a Salt 3006 checkout to compare with Salt's own renderer)");
}
