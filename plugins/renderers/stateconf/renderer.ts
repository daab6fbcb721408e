/**
 * The `stateconf` renderer (salt/renderers/stateconf.py): `#!stateconf [-GoSp] [yaml [opts] .
 * jinja [opts]]` renders the file with the template renderer, then the data renderer, then
 * rewrites the high data (high.ts). A file with an `# --- end of state config ---` line is
 * rendered twice: first the part above the line, to gather its `stateconf.set` values, which
 * the second, whole render gets as template variables (with `sls_dir`).
 */
import { SALT_ERR_RENDER_FAILED } from '../errors.js';
import type { RenderContext, RendererDef, RenderStep } from '../types.js';
import { renderError } from '../where.js';
import {
  addGoalState,
  addImplicitRequires,
  addStartState,
  extractStateConfs,
  namesDeclIn,
  newMemory,
  renameStateIds,
  rewriteIncludesExcludes,
  rewriteShorthand,
  type StateconfMemory,
} from './high.js';
import { StateconfError } from './sls-ids.js';

const END_MARKER = /#\s*-+\s*end of state config\s*-+/;

const USAGE = `Invalid use of stateconf.py renderer!
Usage: #!stateconf.py [-GoSp] [<data_renderer> [options] . <template_renderer> [options]]

where an example <data_renderer> would be yaml and a <template_renderer> might
be jinja. Each renderer can be passed its renderer specific options.

Options(for this renderer):

  -G   Do not generate the goal state that requires all other states in the sls.

  -o   Indirectly order the states by adding requires such that they will be
       executed in the order they are defined in the sls. Implies using yaml -o.

  -s   Generate the start state that gets inserted as the first state in
       the sls. This only makes sense if your high state data dict is ordered.

  -p   Assume high state input. This option allows you to pipe high state data
       through this renderer. With this option, the use of stateconf.set state
       in the sls will have no effect, but other features of the renderer still
       apply.

  `;

/**
 * Salt keeps stateconf's values in module globals for the life of the loader: one run's files
 * see what earlier files set. tsalt keeps them per run, keyed by the run's `opts` object.
 */
const memories = new WeakMap<object, StateconfMemory>();

function memoryOf(context: RenderContext): StateconfMemory {
  let memory = memories.get(context.opts);
  if (!memory) {
    memory = newMemory();
    memories.set(context.opts, memory);
  }
  return memory;
}

interface Flags {
  noGoal: boolean;
  implicit: boolean;
  start: boolean;
  high: boolean;
}

/** Python's `getopt(argv, "Gosp")`: the leading options, and the words after them. */
function getopt(words: string[]): { flags: Flags; rest: string[] } {
  const flags: Flags = { noGoal: false, implicit: false, start: false, high: false };
  let i = 0;
  for (; i < words.length; i++) {
    const w = words[i] ?? '';
    if (w === '--') {
      i++;
      break;
    }
    if (!w.startsWith('-') || w === '-') break;
    for (const c of w.slice(1)) {
      if (c === 'G') flags.noGoal = true;
      else if (c === 'o') flags.implicit = true;
      else if (c === 's') flags.start = true;
      else if (c === 'p') flags.high = true;
      else throw new StateconfError(`option -${c} not recognized`);
    }
  }
  return { flags, rest: words.slice(i) };
}

/** `yaml -o . jinja` → [`yaml -o`, `jinja`]: split at the first ` . ` (`\.` is a literal dot). */
function splitArgline(argline: string): string[] {
  const m = /\s+(?<!\\)\.\s+/.exec(argline);
  const parts = m ? [argline.slice(0, m.index), argline.slice(m.index + m[0].length)] : [argline];
  return parts.map((p) => p.trim().replaceAll('\\.', '.'));
}

function nameAndArgline(part: string): [string, string] {
  const i = `${part} `.indexOf(' ');
  return [part.slice(0, i), `${part} `.slice(i + 1).trim()];
}

function rendererNamed(step: RenderStep, name: string): RendererDef {
  const def = step.renderers?.get(name);
  if (!def) throw new StateconfError(`Renderer: '${name}.render' is not available!`);
  return def;
}

async function renderStateconf(input: unknown, context: RenderContext, step: RenderStep): Promise<unknown> {
  const sls = context.sls ?? '';
  const memory = memoryOf(context);
  const { flags, rest } = getopt(step.argline.split(/\s+/).filter((w) => w !== ''));

  const processHigh = (high: unknown, extract: boolean): Record<string, unknown> => {
    if (typeof high !== 'object' || high === null || Array.isArray(high))
      throw new StateconfError('sls preprocessing/rendering failed!');
    const data = structuredClone(high) as Record<string, unknown>;
    try {
      rewriteShorthand(data);
      rewriteIncludesExcludes(data, sls, context.saltenv);
      if (!extract && flags.implicit) {
        const sid = namesDeclIn(data);
        if (sid)
          throw new StateconfError(
            `'names' declaration(found in state id: ${sid}) is not supported with implicitly ordered states! You should generate the states in a template for-loop instead.`,
          );
        addImplicitRequires(data, memory);
      }
      if (flags.start) addStartState(data, sls);
      if (!extract && !flags.noGoal) addGoalState(data);
      renameStateIds(data, sls);
      extractStateConfs(data, memory);
    } catch (err) {
      if (err instanceof StateconfError) throw err;
      throw new StateconfError('sls preprocessing/rendering failed!');
    }
    return data;
  };

  if (flags.high) return processHigh(input, false);

  const parts = splitArgline(rest.length ? rest.join(' ') : 'yaml . jinja');
  const [dataName, dataArgline] = nameAndArgline(parts[0] ?? '');
  const renderData = rendererNamed(step, dataName);
  if (flags.implicit && dataName !== 'yaml')
    throw new StateconfError('Implicit ordering is only supported if the yaml renderer is used!');
  if (parts[1] === undefined) throw new StateconfError(USAGE);
  const [templateName, templateArgline] = nameAndArgline(parts[1]);
  const renderTemplate = rendererNamed(step, templateName);
  if (typeof input !== 'string') throw new StateconfError('sls preprocessing/rendering failed!');

  const slsDir = sls.includes('.') ? sls.replaceAll('.', '/').replace(/\/?[^/]*$/, '') : sls;
  const processSls = async (text: string, vars: Record<string, unknown>, extract: boolean) => {
    const extra = { ...context.extra, sls_dir: slsDir || '.', ...vars };
    const out = await renderTemplate.render(
      text,
      { ...context, extra },
      { ...step, argline: templateArgline },
    );
    const high = await renderData.render(out, context, { ...step, argline: dataArgline });
    return processHigh(high, extract);
  };

  const marker = END_MARKER.exec(input);
  if (marker) await processSls(input.slice(0, marker.index), {}, true);
  const prefix = `${sls}::`;
  const vars: Record<string, unknown> = {};
  for (const [k, v] of memory.conf) vars[k.startsWith(prefix) ? k.slice(prefix.length) : k] = v;
  return processSls(input, vars, false);
}

export const stateconfRenderer: RendererDef = {
  name: 'stateconf',
  async render(input, context, step) {
    try {
      return await renderStateconf(input, context, step);
    } catch (err) {
      if (!(err instanceof StateconfError)) throw err;
      throw renderError(
        SALT_ERR_RENDER_FAILED,
        { path: step.path, line: 0, column: 0, chain: step.chain },
        err.message,
      );
    }
  },
};
