/**
 * Salt's `ansible` state module (salt/states/ansiblegate.py): `ansible.call` runs Ansible
 * modules named as keys (`- ping: [{data: x}]`, list items that are mappings are keywords),
 * `ansible.playbooks` runs a playbook and reports the tasks that changed or failed per play;
 * with `test=True` it runs the playbook in Ansible's check mode.
 */
import { pyStrRepr } from '../kernel/python/index.js';
import {
  defineState,
  defineStateModule,
  pyShortName,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { playChanges } from './_ansible-changes.js';

/** Salt's `AnsibleState.get_args`: mappings merged into keywords, the rest positionals. */
function splitArgs(argset: unknown): [unknown[], Record<string, unknown>] {
  const args: unknown[] = [];
  const kwargs: Record<string, unknown> = {};
  for (const el of Array.isArray(argset) ? argset : []) {
    if (el && typeof el === 'object' && !Array.isArray(el)) Object.assign(kwargs, el);
    else args.push(el);
  }
  return [args, kwargs];
}

/** Salt's text for a module call that raised: the exception's class name and its str(). */
function failure(mod: string, err: unknown): string {
  const cls = err instanceof Error ? pyShortName(err) : 'Exception';
  // a missing function is Salt's KeyError on __salt__, whose str() is the key's repr
  const text =
    cls === 'KeyError' ? pyStrRepr(`ansible.${mod}`) : err instanceof Error ? err.message : String(err);
  return `Module "${mod}" failed. Error message: (${cls}) ${text}`;
}

async function callModules(ctx: StateContext, kwargs: Record<string, unknown>): Promise<StateReturn> {
  const ret: StateReturn = { name: String(kwargs.name), changes: {}, comment: '', result: true };
  const changes: Record<string, unknown> = {};
  for (const [mod, params] of Object.entries(kwargs)) {
    if (mod === 'name' || mod.startsWith('__')) continue;
    const [args, kw] = splitArgs(params);
    try {
      changes[mod] = await ctx.call(`ansible.${mod}`, [], { __pub_arg: [args, kw] });
    } catch (err) {
      changes[mod] = failure(mod, err);
      ret.result = false;
    }
  }
  ret.changes = changes;
  return ret;
}

interface HostStats {
  changed: number;
  failures: number;
  unreachable: number;
}

const isDict = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

async function runPlaybook(
  ctx: StateContext,
  name: string,
  rundir: unknown,
  ansibleKwargs: unknown,
): Promise<StateReturn> {
  // Salt's key order: result, changes, comment, name
  const ret = { result: false, changes: {}, comment: `Running playbook ${name}`, name } as StateReturn;
  const extra = isDict(ansibleKwargs) ? ansibleKwargs : {};
  const kw = ctx.test ? { rundir, check: true, diff: true, ...extra } : { rundir, diff: true, ...extra };
  const out = (await ctx.call('ansible.playbooks', [name], kw)) as Record<string, unknown>;
  if (!isDict(out.stats)) {
    return { ...ret, comment: (out.stderr ?? out) as string, result: false, changes: {} };
  }
  const stats = Object.values(out.stats) as HostStats[];
  const clean = (s: HostStats) => !s.failures && !s.unreachable;
  if (stats.every((s) => !s.changed && clean(s))) {
    ret.comment = `No changes to be made from playbook ${name}`;
    ret.result = true;
    if (!ctx.test) ret.changes = playChanges(out);
    return ret;
  }
  ret.changes = playChanges(out);
  if (ctx.test) {
    if (stats.some((s) => s.changed && clean(s))) {
      return { ...ret, comment: `Changes will be made from playbook ${name}`, result: null };
    }
    return { ...ret, comment: `There were some issues running the playbook ${name}`, result: false };
  }
  ret.result = stats.every(clean);
  ret.comment = ret.result
    ? `Changes were made by playbook ${name}`
    : `There were some issues running the playbook ${name}`;
  return ret;
}

export default defineStateModule({
  name: 'ansible',
  doc: 'Run Ansible modules (ansible.call) and playbooks (ansible.playbooks) as states.',
  functions: {
    call: defineState({
      varkw: true,
      doc: 'Call Ansible modules: each keyword names a module, its list gives the arguments (mappings are keywords).',
      run: (ctx, _a, extra) => callModules(ctx, extra.kwargs),
    }),
    playbooks: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          rundir: z.unknown().default(null),
          git_repo: z.unknown().default(null),
          git_kwargs: z.unknown().default(null),
          ansible_kwargs: z.unknown().default(null),
        }),
      doc: 'Run an Ansible playbook (relative to rundir); test=True runs it in check mode.',
      async run(ctx, a) {
        let rundir = a.rundir;
        if (a.git_repo) {
          if (typeof rundir !== 'string' || !rundir) {
            return {
              name: a.name,
              result: false,
              changes: {},
              comment: 'tsalt needs rundir to clone git_repo into',
            };
          }
          await ctx.state('git.latest', {
            name: a.git_repo,
            target: rundir,
            ...(isDict(a.git_kwargs) ? a.git_kwargs : {}),
          });
          rundir = a.rundir;
        }
        return runPlaybook(ctx, a.name, rundir, a.ansible_kwargs);
      },
    }),
  },
});
