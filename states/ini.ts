/**
 * Salt's `ini` state module (salt/states/ini_manage.py) over the `ini` execution module:
 * `ini.options_present` (with `strict`), `ini.options_absent`, `ini.sections_present` and
 * `ini.sections_absent`, each with Salt's test-mode comments.
 */
import { pyStr } from '../kernel/util.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);
const truthy = (v: unknown) => Boolean(v) && !(isDict(v) && Object.keys(v).length === 0);

const fileArgs = (z: typeof import('zod').z) => ({
  name: z.string(),
  sections: z.record(z.string(), z.unknown()).nullish(),
  separator: z.string().default('='),
});
const names = (z: typeof import('zod').z) =>
  z
    .union([z.array(z.unknown()), z.record(z.string(), z.unknown())])
    .nullish()
    .transform((v) => (v == null ? [] : Array.isArray(v) ? v.map((x) => pyStr(x)) : Object.keys(v)))
    // Salt's default is None (sys.state_argspec), which the states read as no sections
    .meta({ argspecDefault: null });

const start = (name: string, test: boolean): StateReturn => ({
  name,
  changes: {},
  result: true,
  comment: test ? '' : 'No anomaly detected',
});

type FileRef = { name: string; separator: string; encoding?: string | null | undefined };
const where = (a: FileRef) => ({ file_name: a.name, separator: a.separator, encoding: a.encoding ?? null });
const getIni = async (ctx: StateContext, a: FileRef) => (await ctx.call('ini.get_ini', [], where(a))) as Dict;
const setOption = async (ctx: StateContext, a: FileRef, sections: Dict, noSpaces = false) =>
  (await ctx.call('ini.set_option', [], { ...where(a), sections, no_spaces: noSpaces })) as Dict;
const removeOption = (ctx: StateContext, a: FileRef, section: string | null, option: string) =>
  ctx.call('ini.remove_option', [], { ...where(a), section, option });

/** The keys of a Python value iterated by `for key in value`. */
function iterKeys(v: unknown): string[] {
  if (Array.isArray(v)) return v.map((x) => pyStr(x));
  if (typeof v === 'string') return [...v];
  if (isDict(v)) return Object.keys(v);
  throw new TypeError(`'${v === null || v === undefined ? 'NoneType' : typeof v}' object is not iterable`);
}

async function optionsPresent(
  ctx: StateContext,
  a: FileRef & { sections?: Dict | null; strict: boolean; no_spaces: boolean },
): Promise<StateReturn> {
  const ret = start(a.name, ctx.test);
  let comment = String(ret.comment);
  const changes: Dict = {};
  const sections = a.sections ?? {};
  if (Object.keys(sections).length) {
    const options = Object.fromEntries(Object.entries(sections).filter(([, v]) => !isDict(v)));
    const cur = await getIni(ctx, a);
    const topOpts = Object.fromEntries(Object.entries(cur).filter(([, v]) => !isDict(v)));
    const curSections = Object.fromEntries(Object.entries(cur).filter(([, v]) => isDict(v))) as Record<
      string,
      Dict
    >;
    if (ctx.test) {
      for (const [opt, value] of Object.entries(options)) {
        if (opt in topOpts && pyStr(topOpts[opt]) === pyStr(value)) comment += `Unchanged key ${opt}.\n`;
        else {
          comment += `Changed key ${opt}.\n`;
          ret.result = null;
        }
      }
    } else Object.assign(changes, await setOption(ctx, a, options, a.no_spaces));
    if (a.strict) {
      for (const opt of Object.keys(topOpts).filter((k) => !(k in options))) {
        if (ctx.test) {
          comment += `Removed key ${opt}.\n`;
          ret.result = null;
        } else {
          await removeOption(ctx, a, null, opt);
          changes[opt] = { before: topOpts[opt], after: null };
        }
      }
    }
    for (const [sname, body] of Object.entries(sections)) {
      if (!isDict(body)) continue;
      const descr = sname ? ` in section ${sname}` : '';
      const secChanges: Dict = {};
      changes[sname] = secChanges;
      const original = isDict(cur[sname]) ? (cur[sname] as Dict) : {};
      if (a.strict) {
        for (const k of Object.keys(original).filter((k) => !(k in body))) {
          if (ctx.test) {
            comment += `Deleted key ${k}${descr}.\n`;
            ret.result = null;
          } else {
            await removeOption(ctx, a, sname, k);
            secChanges[k] = { before: curSections[sname]?.[k] ?? '#-#-', after: null };
          }
        }
      }
      if (ctx.test) {
        for (const [opt, value] of Object.entries(body)) {
          const was = curSections[sname] && opt in curSections[sname] ? curSections[sname][opt] : '#-#-';
          if (pyStr(value) === pyStr(was)) comment += `Unchanged key ${opt}${descr}.\n`;
          else {
            comment += `Changed key ${opt}${descr}.\n`;
            ret.result = null;
          }
        }
      } else {
        const updated = await setOption(ctx, a, { [sname]: body }, a.no_spaces);
        if (Object.keys(updated).length) Object.assign(secChanges, updated[sname] as Dict);
        if (!Object.keys(secChanges).length) delete changes[sname];
      }
    }
  } else if (!ctx.test) Object.assign(changes, await setOption(ctx, a, sections, a.no_spaces));
  ret.comment = comment;
  if ('error' in changes) {
    return { ...ret, result: false, comment: `Errors encountered. ${pyStr(changes.error)}`, changes: {} };
  }
  for (const [k, body] of Object.entries(changes)) {
    if (!truthy(body)) continue;
    ret.comment = 'Changes take effect';
    (ret.changes as Dict)[k] = body;
  }
  return ret;
}

async function optionsAbsent(
  ctx: StateContext,
  a: FileRef & { sections?: Dict | null },
): Promise<StateReturn> {
  const ret = start(a.name, ctx.test);
  const sections = a.sections ?? {};
  if (ctx.test) {
    let comment = '';
    for (const [section, keys] of Object.entries(sections)) {
      const descr = section ? ` in section ${section}` : '';
      if (Array.isArray(keys)) {
        let cur: Dict = {};
        try {
          cur = (await ctx.call('ini.get_section', [], { ...where(a), section })) as Dict;
        } catch {
          // a top-level option of that name: no section to look in
        }
        for (const key of keys.map((k) => pyStr(k))) {
          if (!truthy(cur[key])) {
            comment += `Key ${key}${descr} does not exist.\n`;
            continue;
          }
          comment += `Deleted key ${key}${descr}.\n`;
          ret.result = null;
        }
      } else if (
        !truthy(await ctx.call('ini.get_option', [], { ...where(a), section: null, option: section }))
      ) {
        comment += `Key ${section} does not exist.\n`;
      } else {
        comment += `Deleted key ${section}.\n`;
        ret.result = null;
      }
    }
    ret.comment = comment || 'No changes detected.';
    return ret;
  }
  const changes = ret.changes as Dict;
  for (const [section, keys] of Object.entries(sections)) {
    for (const key of iterKeys(keys)) {
      const value = await removeOption(ctx, a, section, key);
      if (!truthy(value)) continue;
      changes[section] = { ...((changes[section] as Dict | undefined) ?? {}), [key]: value };
      if (!Array.isArray(keys)) changes[section] = value;
      ret.comment = 'Changes take effect';
    }
  }
  return ret;
}

/** The arguments of `sections_present` and `sections_absent`. */
const sectionsArgs = (z: typeof import('zod').z) =>
  z.object({
    name: z.string(),
    sections: names(z),
    separator: z.string().default('='),
    encoding: z.string().nullish(),
  });

/**
 * Test mode of the section states: a comment line per section, result `None` when a section is
 * not as `exists` wants it.
 */
async function predictSections(
  ctx: StateContext,
  a: FileRef & { sections: string[] },
  exists: boolean,
  same: (section: string) => string,
  change: (section: string) => string,
): Promise<StateReturn> {
  const ret = start(a.name, true);
  const cur = await getIni(ctx, a);
  let comment = '';
  for (const s of a.sections) {
    if (s in cur === exists) comment += `${same(s)}\n`;
    else {
      comment += `${change(s)}\n`;
      ret.result = null;
    }
  }
  ret.comment = comment || 'No changes detected.';
  return ret;
}

export default defineStateModule({
  name: 'ini',
  doc: 'Manage options and sections of ini files (through the ini execution module).',
  functions: {
    options_present: defineState({
      args: (z) =>
        z.object({
          ...fileArgs(z),
          strict: z.boolean().default(false),
          encoding: z.string().nullish(),
          no_spaces: z.boolean().default(false),
        }),
      doc: `Ensure options are set in an ini file: sections maps section names to {option: value}; a
non-mapping value is a top-level option. strict: also remove the options not listed (in the
sections listed, and at the top level). no_spaces: write separators without spaces around them.`,
      run: optionsPresent,
    }),
    options_absent: defineState({
      args: (z) => z.object({ ...fileArgs(z), encoding: z.string().nullish() }),
      doc: `Ensure options are absent from an ini file: sections maps a section name to a list of
option names; a name with a non-list value is a top-level option.`,
      run: optionsAbsent,
    }),
    sections_present: defineState({
      args: sectionsArgs,
      doc: 'Ensure the sections (a list of names, or a mapping whose keys are the names) exist in an ini file.',
      async run(ctx, a): Promise<StateReturn> {
        if (ctx.test) {
          return predictSections(
            ctx,
            a,
            true,
            (s) => `Section unchanged ${s}.`,
            (s) => `Created new section ${s}.`,
          );
        }
        const ret = start(a.name, ctx.test);
        const changes = await setOption(ctx, a, Object.fromEntries(a.sections.map((s) => [s, {}])));
        return { ...ret, changes, comment: 'Changes take effect' };
      },
    }),
    sections_absent: defineState({
      args: sectionsArgs,
      doc: 'Ensure the sections (a list of names) are absent from an ini file.',
      async run(ctx, a): Promise<StateReturn> {
        if (ctx.test) {
          return predictSections(
            ctx,
            a,
            false,
            (s) => `Section ${s} does not exist.`,
            (s) => `Deleted section ${s}.`,
          );
        }
        const ret = start(a.name, ctx.test);
        for (const s of a.sections) {
          const removed = await ctx.call('ini.remove_section', [], { ...where(a), section: s });
          if (!truthy(removed)) continue;
          (ret.changes as Dict)[s] = removed;
          ret.comment = 'Changes take effect';
        }
        return ret;
      },
    }),
  },
});
