/**
 * `salt[...]` and `salt://` imports of the templates a minion renders (state SLS files and their
 * imports, `file.managed` and `cp.get_template` templates, `cmd.run template=jinja`,
 * `slsutil.renderer`), as Salt's `__salt__` LazyLoader answers Jinja: every name the text of the
 * template or of a file it imports shows is looked up in the minion's functions before it
 * renders, so `salt['x.y'] is defined`, `is callable` and `'x.y' in salt` are false for a
 * function this minion does not have (a module whose `virtual` refused, a name no module has).
 */

import { readFile } from 'node:fs/promises';
import type { ExecContext } from '../kernel/index.js';
import { type LoadFile, lookedUpSaltFunctions, type SaltFunctions } from '../plugins/renderers/index.js';
import type { FileClient } from './_file-client.js';

export interface TemplateSalt {
  /** The `salt` global; `prepare(text)` before a render with it. */
  readonly salt: Required<SaltFunctions>;
  /** `{% import %}`, `{% include %}`, `import_yaml` through the file client, each text prepared. */
  readonly loadFile: LoadFile;
}

/**
 * The template helpers of job `ctx`: `call` runs a function (default `ctx.call`; a state run's
 * passes its pillar). Names are looked up once per value, one value per render or state run.
 */
export function templateSalt(
  ctx: ExecContext,
  fc: Pick<FileClient, 'cacheFile'>,
  call: SaltFunctions['call'] = (fun, args, kwargs) => ctx.call(fun, args, kwargs),
): TemplateSalt {
  const salt = lookedUpSaltFunctions(call, async (fun) => (await ctx.functions.get(fun)) !== undefined);
  return {
    salt,
    async loadFile(name, saltenv) {
      const url = name.startsWith('salt://') ? name : `salt://${name}`;
      const got = await fc.cacheFile(url, saltenv);
      if (!got) return undefined;
      const source = await readFile(got, 'utf8');
      await salt.prepare(source);
      return { source, path: url };
    },
  };
}
