/**
 * Salt's `gem` state module (`salt/states/gem.py`): `gem.installed` installs a Ruby gem unless
 * `gem.list` shows it (at `version`, or meeting `>=`/`>`/`<`/`<=` a version), `gem.removed`
 * uninstalls one, `gem.sources_add`/`gem.sources_remove` keep a gem source configured or not.
 * Through the `gem` execution module; its errors (gem's stderr) fail the state as Salt's do.
 */

import { pyStr } from '../kernel/util.js';
import { rubyManagerInstalled } from '../modules/_gem-run.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { looseVersionSatisfies } from './_gem-version.js';

type Listed = Record<string, string[]>;

/** `ruby=2.7` or `version=1.1` from YAML arrive as numbers: the text Python's `str` gives them. */
const textArg = (z: typeof import('zod').z) =>
  z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v === null || v === undefined ? v : pyStr(v)));

const start = (name: string): StateReturn => ({ name, result: null, comment: '', changes: {} });

/** Whether `have` (gem.list's versions, newest first) already satisfies `version`, as Salt decides it. */
function satisfied(have: string[] | undefined, version: string | null | undefined): string | null {
  if (!have) return null;
  if (version === null || version === undefined) return 'Gem is already installed.';
  const cmpr = /^(>=|>|<|<=)/.exec(version)?.[1];
  if (!cmpr) return have.includes(version) ? 'Gem is already installed.' : null;
  const installed = (have[0] ?? '').replaceAll('default: ', '').trim();
  const desired = version.replaceAll(cmpr, '').trim();
  return looseVersionSatisfies(installed, cmpr, desired) ? 'Installed Gem meets version requirements.' : null;
}

const installed = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      ruby: textArg(z),
      gem_bin: z.string().nullish(),
      user: z.string().nullish(),
      version: textArg(z),
      rdoc: z.unknown().default(false),
      ri: z.unknown().default(false),
      pre_releases: z.unknown().default(false),
      proxy: z.string().nullish(),
      source: z.string().nullish(),
    }),
  doc: 'Make sure that a gem is installed (at version, or meeting >=, >, < or <= a version). ruby: with RVM or rbenv, the Ruby and gemset; gem_bin: the gem program; user: who runs gem; rdoc, ri: generate documentation; pre_releases; proxy; source: the gem source server.',
  async run(ctx, a): Promise<StateReturn> {
    const ret = start(a.name);
    if (a.ruby !== null && a.ruby !== undefined && !(await rubyManagerInstalled(ctx, a.user)))
      ctx.log.warn({}, 'Use of argument ruby found, but neither rvm or rbenv is installed');
    const gems = (await ctx.call('gem.list', [a.name, a.ruby], {
      gem_bin: a.gem_bin,
      runas: a.user,
    })) as Listed;
    const ok = satisfied(gems[a.name], a.version);
    if (ok) return { ...ret, result: true, comment: ok };
    if (ctx.test) return { ...ret, comment: `The gem ${a.name} would have been installed` };
    const done = await ctx.call('gem.install', [a.name], {
      ruby: a.ruby,
      gem_bin: a.gem_bin,
      runas: a.user,
      version: a.version,
      rdoc: a.rdoc ?? false,
      ri: a.ri ?? false,
      pre_releases: a.pre_releases ?? false,
      proxy: a.proxy,
      source: a.source,
    });
    if (!done) return { ...ret, result: false, comment: 'Could not install gem.' };
    return {
      ...ret,
      result: true,
      comment: 'Gem was successfully installed',
      changes: { [a.name]: 'Installed' },
    };
  },
});

const removed = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      ruby: textArg(z),
      user: z.string().nullish(),
      gem_bin: z.string().nullish(),
    }),
  doc: 'Make sure that a gem is not installed. ruby: with RVM or rbenv, the Ruby and gemset; user: who runs gem; gem_bin: the gem program.',
  async run(ctx, a): Promise<StateReturn> {
    const ret = start(a.name);
    const gems = (await ctx.call('gem.list', [a.name, a.ruby], {
      gem_bin: a.gem_bin,
      runas: a.user,
    })) as Listed;
    if (!(a.name in gems)) return { ...ret, result: true, comment: 'Gem is not installed.' };
    if (ctx.test) return { ...ret, comment: `The gem ${a.name} would have been removed` };
    if (await ctx.call('gem.uninstall', [a.name, a.ruby], { gem_bin: a.gem_bin, runas: a.user }))
      return {
        ...ret,
        result: true,
        comment: 'Gem was successfully removed.',
        changes: { [a.name]: 'Removed' },
      };
    return { ...ret, result: false, comment: 'Could not remove gem.' };
  },
});

/** Salt's texts for `gem.sources_add` (`add`) and `gem.sources_remove`. */
const SOURCE_TEXTS = {
  add: {
    done: 'Gem source is already added.',
    test: (name: string) => `The gem source ${name} would have been added.`,
    ok: 'Gem source was successfully added.',
    change: 'Installed',
    fail: 'Could not add gem source.',
  },
  remove: {
    done: 'Gem source is already removed.',
    test: () => 'The gem source would have been removed.',
    ok: 'Gem source was successfully removed.',
    change: 'Removed',
    fail: 'Could not remove gem source.',
  },
} as const;

/** `gem.sources_add` or `gem.sources_remove`: the source in `gem.sources_list` or not, through the gem module. */
function sourceState(op: keyof typeof SOURCE_TEXTS) {
  const t = SOURCE_TEXTS[op];
  return defineState({
    args: (z) => z.object({ name: z.string(), ruby: textArg(z), user: z.string().nullish() }),
    doc: `Make sure that a gem source is ${op === 'add' ? 'added' : 'removed'}. ruby: with RVM or rbenv, the Ruby and gemset; user: who runs gem.`,
    async run(ctx, a): Promise<StateReturn> {
      const ret = start(a.name);
      const have = (await ctx.call('gem.sources_list', [a.ruby], { runas: a.user })) as string[];
      if (have.includes(a.name) === (op === 'add')) return { ...ret, result: true, comment: t.done };
      if (ctx.test) return { ...ret, comment: t.test(a.name) };
      if (await ctx.call(`gem.sources_${op}`, [], { source_uri: a.name, ruby: a.ruby, runas: a.user }))
        return { ...ret, result: true, comment: t.ok, changes: { [a.name]: t.change } };
      return { ...ret, result: false, comment: t.fail };
    },
  });
}

export default defineStateModule({
  name: 'gem',
  doc: 'Installation of Ruby modules packaged as gems (gem.installed, gem.removed, gem.sources_add, gem.sources_remove).',
  functions: { installed, removed, sources_add: sourceState('add'), sources_remove: sourceState('remove') },
});
