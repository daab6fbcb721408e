/**
 * Salt's `gem` execution module (`salt/modules/gem.py`): install, uninstall, update and list
 * Ruby gems and the gem sources, with `gem` (or `gem_bin`), or through RVM or rbenv when their
 * programs are there (modules/_gem-run.ts). A failing `gem` raises with its stderr, as Salt's.
 * Like Salt's, the module always loads: without a gem program each call fails with cmd's error.
 */
import type { z as Zod } from 'zod';
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pySplitlines, pyStr } from '../kernel/util.js';
import { pyFlag } from './_coerce.js';
import { cli } from './_file-args.js';
import { type GemTarget, runGem } from './_gem-run.js';

/** A string; a YAML number (`ruby=2.7`, `version=1.1`) as Python's `str` gives it. */
const optText = (z: typeof Zod) =>
  z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v === null || v === undefined ? v : pyStr(v)));

/** The keywords every function takes, in Salt's order (`ruby`, `runas`, `gem_bin`). */
const target = (z: typeof Zod) => ({
  ruby: optText(z),
  runas: z.string().nullish(),
  gem_bin: z.string().nullish(),
});

/** Salt's `gems.split()` for a string; a list as given. */
const gemsArg = (z: typeof Zod) =>
  z
    .union([z.string(), z.array(z.union([z.string(), z.number()]))])
    .transform((g) => (typeof g === 'string' ? g.split(/\s+/).filter(Boolean) : g.map((x) => pyStr(x))));

const RUBY_DOC =
  ' ruby: with RVM or rbenv, the Ruby (and gemset) to use; runas: the user; gem_bin: the gem program.';

/** Salt's `salt.utils.itertools.split(text, "\n")`: the lines, without a last empty one. */
function lines(text: string): string[] {
  const out = text.split('\n');
  if (out.at(-1) === '') out.pop();
  return out;
}

/** `gem --version`'s first line starting with a digit or dot; `{}` when there is none (Salt's). */
async function gemVersion(ctx: ExecContext, t: GemTarget): Promise<string | Record<string, never>> {
  const out = await runGem(ctx, ['--version'], t);
  for (const line of lines(out || '')) if (/^[.0-9]+/.test(line)) return line;
  return {};
}

export default defineModule({
  name: 'gem',
  doc: 'Manage ruby gems.',
  functions: {
    install: defineFunction({
      args: (z) =>
        z.object({
          gems: gemsArg(z),
          ruby: optText(z),
          gem_bin: z.string().nullish(),
          runas: z.string().nullish(),
          version: optText(z),
          rdoc: pyFlag(z, false),
          ri: pyFlag(z, false),
          pre_releases: pyFlag(z, false),
          proxy: z.string().nullish(),
          source: z.string().nullish(),
        }),
      doc: `Installs one or several gems (gems: names separated by spaces, or a list). version: the version to install; rdoc, ri: generate documentation (with RubyGems 3 either one false means --no-document); pre_releases: include pre-releases; proxy: http://host[:port]; source: the gem source server.${RUBY_DOC} Returns gem's output.${cli("salt '*' gem.install vagrant")}`,
      run: async (ctx, a) => {
        const options: string[] = [];
        if (a.version) options.push('--version', a.version);
        const ver = await gemVersion(ctx, a);
        if (typeof ver === 'string' && /^3\./.test(ver)) {
          if (!a.rdoc || !a.ri) options.push('--no-document');
          if (a.pre_releases) options.push('--prerelease');
        } else {
          if (!a.rdoc) options.push('--no-rdoc');
          if (!a.ri) options.push('--no-ri');
          if (a.pre_releases) options.push('--pre');
        }
        if (a.proxy) options.push('-p', a.proxy);
        if (a.source) options.push('--source', a.source);
        return runGem(ctx, ['install', ...a.gems, ...options], a);
      },
    }),
    uninstall: defineFunction({
      args: (z) => z.object({ gems: gemsArg(z), ...target(z) }),
      doc: `Uninstall one or several gems, every version and their executables (gem uninstall -a -x).${RUBY_DOC} Returns gem's output.${cli("salt '*' gem.uninstall vagrant")}`,
      run: (ctx, a) => runGem(ctx, ['uninstall', ...a.gems, '-a', '-x'], a),
    }),
    update: defineFunction({
      args: (z) => z.object({ gems: gemsArg(z), ...target(z) }),
      doc: `Update one or several gems.${RUBY_DOC} Returns gem's output.${cli("salt '*' gem.update vagrant")}`,
      run: (ctx, a) => runGem(ctx, ['update', ...a.gems], a),
    }),
    update_system: defineFunction({
      args: (z) =>
        z.object({
          version: z
            .union([z.string(), z.number()])
            .default('')
            .transform((v) => pyStr(v)),
          ...target(z),
        }),
      doc: `Update RubyGems itself (version: the one to install, the newest when empty).${RUBY_DOC}${cli("salt '*' gem.update_system")}`,
      run: (ctx, a) => runGem(ctx, ['update', '--system', a.version], a),
    }),
    version: defineFunction({
      args: (z) => z.object(target(z)),
      doc: `The version of gem (RubyGems).${RUBY_DOC}${cli("salt '*' gem.version")}`,
      run: (ctx, a) => gemVersion(ctx, a),
    }),
    list: defineFunction({
      pyName: 'list_',
      args: (z) => z.object({ prefix: optText(z).transform((v) => v ?? ''), ...target(z) }),
      doc: `List locally installed gems, each with its versions (only those whose name matches prefix when given).${RUBY_DOC}${cli("salt '*' gem.list")}`,
      run: async (ctx, a) => {
        const out = await runGem(ctx, a.prefix ? ['list', a.prefix] : ['list'], a);
        const ret: Record<string, string[]> = {};
        for (const line of lines(out || '')) {
          const m = /^([^ ]+) \((.+)\)/.exec(line);
          if (m) ret[m[1] as string] = (m[2] as string).split(', ');
        }
        return ret;
      },
    }),
    list_upgrades: defineFunction({
      args: (z) => z.object(target(z)),
      doc: `Check if an upgrade is available for installed gems: each outdated gem with its newest version.${RUBY_DOC}${cli("salt '*' gem.list_upgrades")}`,
      run: async (ctx, a) => {
        const out = await runGem(ctx, ['outdated'], a);
        const ret: Record<string, string> = {};
        for (const line of lines(out || '')) {
          const m = /(\S+) \(\S+ < (\S+)\)/.exec(line);
          if (m) ret[m[1] as string] = m[2] as string;
          else ctx.log.error(`Can't parse line '${line}'`);
        }
        return ret;
      },
    }),
    sources_add: defineFunction({
      args: (z) => z.object({ source_uri: z.string(), ...target(z) }),
      doc: `Add a gem source.${RUBY_DOC} Returns gem's output.${cli("salt '*' gem.sources_add http://rubygems.org/")}`,
      run: (ctx, a) => runGem(ctx, ['sources', '--add', a.source_uri], a),
    }),
    sources_remove: defineFunction({
      args: (z) => z.object({ source_uri: z.string(), ...target(z) }),
      doc: `Remove a gem source.${RUBY_DOC} Returns gem's output.${cli("salt '*' gem.sources_remove http://rubygems.org/")}`,
      run: (ctx, a) => runGem(ctx, ['sources', '--remove', a.source_uri], a),
    }),
    sources_list: defineFunction({
      args: (z) => z.object(target(z)),
      doc: `List the configured gem sources.${RUBY_DOC}${cli("salt '*' gem.sources_list")}`,
      run: async (ctx, a) => {
        const out = await runGem(ctx, ['sources'], a);
        return out === false ? [] : pySplitlines(out).slice(2);
      },
    }),
  },
});
