/**
 * Salt's `ansible` execution module (salt/modules/ansiblegate.py): Ansible modules run on this
 * machine (`call`, and one function per installed Ansible module, `ansible.ping` or
 * `ansible.builtin.ping`), playbooks (`playbooks`, `discover_playbooks`), inventories
 * (`targets`) and module docs (`help`, `list`).
 *
 * Like Salt's `__virtual__`, `virtual()` asks `ansible-doc` for the installed modules and adds a
 * function for each to this module's function map, under the names Salt gives them.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  type FunctionSpec,
  SALT_ERR_EXEC_COMMAND,
  type VirtualResult,
} from '../kernel/index.js';
import { ansibleEnv, callAnsible } from './_ansible-call.js';
import { explorePath, type FoundPlaybook } from './_ansible-discover.js';
import { runPlaybooks } from './_ansible-playbooks.js';
import { fnmatch } from './_fnmatch.js';
import { runProcess } from './_spawn.js';
import { which } from './_which.js';

/** Salt's `__non_ansible_functions__`: the functions that are not an Ansible module. */
const OWN = ['help', 'list_', 'call', 'playbooks', 'discover_playbooks', 'targets'];

/** Names Salt's module already defines, which an Ansible module never takes over. */
const TAKEN = new Set([...OWN, 'json', 'os', 'sys', 'log', 'logging', 'fnmatch', 'subprocess', 'salt']);

/** Salt's `__load__`: the own functions, then one name per Ansible module alias. */
const loaded: string[] = [...OWN];

async function ansibleDoc(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const doc = which('ansible-doc');
  if (!doc) throw new SALT_ERR_EXEC_COMMAND("The 'ansible-doc' binary was not found.");
  const res = await runProcess({ argv: [doc, ...args], cwd: process.cwd(), env: ansibleEnv(), stdin: null });
  return { code: res.returncode, stdout: res.stdout.toString('utf8'), stderr: res.stderr.toString('utf8') };
}

/** The function that runs Ansible module `real` (Salt's `_set_function`). */
function ansibleFunction(real: string, doc: unknown): FunctionSpec {
  return defineFunction({
    varargs: true,
    varkw: true,
    doc: typeof doc === 'string' ? doc : `Runs the Ansible module ${real} on this machine.`,
    run: (ctx, _a, extra) => callAnsible(ctx, real, extra.args, extra.kwargs),
  });
}

/**
 * Salt's names for the Ansible modules: `ansible.builtin.ping` answers to `builtin.ping` and
 * `ping` too, a collection module without the `ansible.` prefix to its full name.
 */
export function ansibleAliases(listing: Readonly<Record<string, unknown>>): Map<string, [string, unknown]> {
  const map = new Map<string, [string, unknown]>();
  for (const [key, doc] of Object.entries(listing)) {
    if (!key.startsWith('ansible.')) {
      map.set(key, [key, doc]);
      continue;
    }
    let alias = key.slice('ansible.'.length);
    if (map.has(alias) || TAKEN.has(alias)) continue;
    map.set(alias, [key, doc]);
    if (alias.startsWith('builtin.') || alias.startsWith('system.')) {
      alias = alias.slice(alias.indexOf('.') + 1);
      if (map.has(alias) || TAKEN.has(alias)) continue;
      map.set(alias, [key, doc]);
    }
  }
  return map;
}

async function virtual(): Promise<VirtualResult> {
  for (const bin of ['ansible', 'ansible-doc', 'ansible-playbook']) {
    if (!which(bin)) return { ok: false, reason: `The '${bin}' binary was not found.` };
  }
  const res = await ansibleDoc(['--list', '--json', '--type=module']);
  if (res.code !== 0)
    return { ok: false, reason: `Failed to get the listing of ansible modules:\n${res.stderr}` };
  const listing = JSON.parse(res.stdout) as Record<string, unknown>;
  for (const [alias, [real, doc]] of ansibleAliases(listing)) {
    loaded.push(alias);
    functions[alias] = ansibleFunction(real, doc);
  }
  return true;
}

const opt = (z: typeof import('zod').z) => z.unknown().default(null);

/** The functions, open so `virtual()` can add the Ansible modules (Salt's `setattr` on the module). */
const functions: Record<string, FunctionSpec> = {
  help: defineFunction({
    args: (z) => z.object({ module: opt(z) }),
    varargs: true,
    doc: "Display help on Ansible standard module.\n\nCLI Example: salt '*' ansible.help ping",
    run: async (_ctx, { module }, extra) => {
      if (!module) {
        throw new SALT_ERR_EXEC_COMMAND(
          'Please tell me what module you want to have helped with. Or call "ansible.list" to know what is available.',
        );
      }
      const res = await ansibleDoc(['--json', '--type=module', String(module)]);
      if (res.code !== 0) {
        throw new SALT_ERR_EXEC_COMMAND(
          `Command '['${which('ansible-doc')}', '--json', '--type=module', '${String(module)}']' returned non-zero exit status ${res.code}.`,
        );
      }
      const data = JSON.parse(res.stdout) as Record<string, Record<string, unknown>>;
      const first = Object.keys(data)[0];
      if (first === undefined)
        throw new SALT_ERR_EXEC_COMMAND(`No documentation found for ${String(module)}`);
      const doc = data[first] as Record<string, unknown>;
      if (extra.args.length === 0) {
        const ret = doc.doc as Record<string, unknown>;
        for (const section of ['examples', 'return', 'metadata'])
          if (doc[section]) ret[section] = doc[section];
        return ret;
      }
      const ret: Record<string, unknown> = {};
      for (const arg of extra.args) {
        const info = doc[String(arg)];
        if (info !== undefined && info !== null) ret[String(arg)] = info;
      }
      return ret;
    },
  }),
  list: defineFunction({
    pyName: 'list_',
    args: (z) => z.object({ pattern: opt(z) }),
    doc: "Lists available modules.\n\nCLI Example: salt '*' ansible.list '*win*'",
    run: (_ctx, { pattern }) => {
      if (pattern === null) return [...new Set(loaded)].sort();
      return loaded.filter((n) => fnmatch(n, String(pattern))).sort();
    },
  }),
  call: defineFunction({
    args: (z) => z.object({ module: z.unknown() }),
    varargs: true,
    varkw: true,
    doc: "Call an Ansible module by invoking it.\n\nCLI Example: salt '*' ansible.call ping data=foobar",
    run: (ctx, { module }, extra) => callAnsible(ctx, String(module), extra.args, extra.kwargs),
  }),
  playbooks: defineFunction({
    args: (z) =>
      z.object({
        playbook: z.unknown(),
        rundir: opt(z),
        check: z.unknown().default(false),
        diff: z.unknown().default(false),
        extra_vars: opt(z),
        flush_cache: z.unknown().default(false),
        forks: z.unknown().default(5),
        inventory: opt(z),
        limit: opt(z),
        list_hosts: z.unknown().default(false),
        list_tags: z.unknown().default(false),
        list_tasks: z.unknown().default(false),
        module_path: opt(z),
        skip_tags: opt(z),
        start_at_task: opt(z),
        syntax_check: z.unknown().default(false),
        tags: opt(z),
        playbook_kwargs: opt(z),
      }),
    doc: "Run Ansible Playbooks (ansible-playbook with the JSON stdout callback).\n\nCLI Example: salt 'ansiblehost' ansible.playbooks playbook=/srv/playbooks/play.yml",
    run: (ctx, { playbook, ...o }) => {
      if (!which('ansible-playbook'))
        throw new SALT_ERR_EXEC_COMMAND("The 'ansible-playbook' binary was not found in $PATH.");
      return runPlaybooks(ctx, playbook, o);
    },
  }),
  targets: defineFunction({
    args: (z) =>
      z.object({
        inventory: z.unknown().default('/etc/ansible/hosts'),
        yaml: z.unknown().default(false),
        export: z.unknown().default(false),
      }),
    doc: "Return the inventory from an Ansible inventory file.\n\nCLI Example: salt 'ansiblehost' ansible.targets inventory=my_custom_inventory",
    run: (ctx, a) => targets(ctx, String(a.inventory), !!a.yaml, !!a.export),
  }),
  discover_playbooks: defineFunction({
    args: (z) =>
      z.object({
        path: opt(z),
        locations: opt(z),
        playbook_extension: opt(z),
        hosts_filename: opt(z),
        syntax_check: z.unknown().default(false),
      }),
    doc: "Discover Ansible playbooks stored under the given path or from multiple paths (locations).\n\nCLI Example: salt 'ansiblehost' ansible.discover_playbooks path=/srv/playbooks/",
    run: (ctx, a) => discoverPlaybooks(ctx, a),
  }),
};

/** Salt's `salt.utils.ansible.targets`: `ansible-inventory --list` of an inventory file. */
async function targets(ctx: ExecContext, inventory: string, yaml: boolean, exp: boolean): Promise<unknown> {
  if (!statSync(inventory, { throwIfNoEntry: false })?.isFile())
    throw new SALT_ERR_EXEC_COMMAND(`Inventory file not found: ${inventory}`);
  if (!path.isAbsolute(inventory))
    throw new SALT_ERR_EXEC_COMMAND('Path to inventory file must be an absolute path');
  const extra = [...(exp ? ['--export'] : []), ...(yaml ? ['--yaml'] : [])];
  const inv = String(
    await ctx.call('cmd.run', [`ansible-inventory -i ${inventory} --list ${extra.join(' ')}`], {
      env: { ANSIBLE_DEPRECATION_WARNINGS: '0' },
      reset_system_locale: false,
    }),
  );
  if (yaml) return inv;
  try {
    return JSON.parse(inv) as unknown;
  } catch {
    throw new SALT_ERR_EXEC_COMMAND(`Error processing the inventory: ${inv}`);
  }
}

async function discoverPlaybooks(
  ctx: ExecContext,
  a: {
    path: unknown;
    locations: unknown;
    playbook_extension: unknown;
    hosts_filename: unknown;
    syntax_check: unknown;
  },
): Promise<Record<string, Record<string, FoundPlaybook>> | null> {
  if (!a.path && !a.locations)
    throw new SALT_ERR_EXEC_COMMAND("You have to specify either 'path' or 'locations' arguments");
  if (a.path && a.locations)
    throw new SALT_ERR_EXEC_COMMAND("You cannot specify 'path' and 'locations' at the same time");
  const opts = {
    extension: a.playbook_extension ? String(a.playbook_extension) : 'yml',
    hostsFilename: a.hosts_filename ? String(a.hosts_filename) : 'hosts',
    syntaxCheck: !!a.syntax_check,
  };
  if (a.path) {
    const root = String(a.path);
    if (!path.isAbsolute(root))
      throw new SALT_ERR_EXEC_COMMAND(`The given path is not an absolute path: ${root}`);
    if (!statSync(root, { throwIfNoEntry: false })?.isDirectory())
      throw new SALT_ERR_EXEC_COMMAND(`The given path is not a directory: ${root}`);
    return { [root]: await explorePath(ctx, root, opts) };
  }
  const all: Record<string, Record<string, FoundPlaybook>> = {};
  // Python iterates a string's characters
  const locations: unknown[] = Array.isArray(a.locations) ? a.locations : [...String(a.locations)];
  for (const loc of locations) {
    all[String(loc)] = await explorePath(ctx, String(loc), opts);
  }
  return all;
}

export default defineModule({
  name: 'ansible',
  doc: 'Ansible support: run Ansible modules and playbooks on this machine, read inventories.',
  virtual,
  functions,
});
