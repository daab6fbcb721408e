/**
 * Salt's `iptables` execution module (`salt/modules/iptables.py`): build rules from keywords,
 * read the live and saved tables (`iptables-save`), check, append, insert and delete rules,
 * create, flush and delete chains, set policies, and save the tables to a file. `family='ipv6'`
 * works through `ip6tables`. Results are Salt's: the command's standard error (`''` on success)
 * or a boolean, and `Error: ...` strings for missing arguments.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { hasOption, iptablesCmd, runStderr, runStdout, savedRulesFile, waitFlag } from './_iptables-cmd.js';
import { type IptablesTables, parseIptablesSave } from './_iptables-parse.js';
import { buildRuleText, pyTruthy } from './_iptables-rule.js';
import { which } from './_which.js';

const noChain = 'Error: Chain needs to be specified';
const noRule = 'Error: Rule needs to be specified';

/** The live tables (`in_mem`) or a saved file (the distribution's by default), parsed. */
async function parseConf(
  ctx: ExecContext,
  opts: { confFile?: unknown; inMem?: boolean; family: unknown },
): Promise<IptablesTables> {
  let file = opts.confFile;
  if (savedRulesFile(ctx) && !pyTruthy(file) && !opts.inMem) file = savedRulesFile(ctx, opts.family);
  if (pyTruthy(file)) {
    const name = pyStr(file);
    try {
      return parseIptablesSave(await readFile(name, 'utf8'));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? '[Errno 2] No such file or directory' : String(err);
      throw new SALT_ERR_EXEC_COMMAND(`${why}: '${name}'`, { cause: err });
    }
  }
  return parseIptablesSave(await runStdout(ctx, `${iptablesCmd(opts.family)}-save`));
}

const policyOf = (rules: IptablesTables, table: unknown, chain: unknown): string | null =>
  rules[pyStr(table)]?.[pyStr(chain)]?.policy ?? null;

/** Drops the lines any `iptables.save_filters` pattern matches (Salt's `_regex_iptables_save`). */
async function filterSaved(ctx: ExecContext, text: string): Promise<string> {
  let filters = ctx.cache.get('iptables.save_filters') as RegExp[] | undefined;
  if (!filters) {
    const configured = await ctx.call('config.option', ['iptables.save_filters', []]);
    filters = [];
    for (const p of Array.isArray(configured) ? configured : []) {
      try {
        filters.push(new RegExp(pyStr(p)));
      } catch (err) {
        ctx.log.warn(`Skipping regex rule: '${pyStr(p)}': ${String(err)}`);
      }
    }
    ctx.cache.set('iptables.save_filters', filters);
  }
  if (filters.length === 0) return text;
  const lines = text.split(/(?<=\n)/);
  return lines.filter((l) => !filters.some((r) => r.test(l))).join('');
}

/** Whether `rule` is in `chain` (`iptables -C`); Salt's `Error:` strings for missing arguments. */
async function check(ctx: ExecContext, table: unknown, chain: unknown, rule: unknown, family: unknown) {
  if (!pyTruthy(chain)) return noChain;
  if (!pyTruthy(rule)) return noRule;
  if (!(await hasOption(ctx, '--check', family)))
    throw new SALT_ERR_EXEC_COMMAND('iptables.check needs an iptables with --check (1.4.11 or later)');
  const cmd = `${iptablesCmd(family)} -t ${pyStr(table)} -C ${pyStr(chain)} ${pyStr(rule)}`;
  const ret = (await ctx.call('cmd.run_all', [cmd], { output_loglevel: 'quiet' })) as { retcode?: number };
  return !ret.retcode;
}

/** The parts of a command line `iptables [--wait] -t TABLE <rest>`. */
async function line(ctx: ExecContext, family: unknown, table: unknown, rest: string): Promise<string> {
  return `${iptablesCmd(family)} ${await waitFlag(ctx, family)} -t ${pyStr(table)} ${rest}`;
}

const family = (z: typeof import('zod').z) => z.unknown().default('ipv4');

/** The `table` and `chain` most functions start with, `extra` after them, then `family` (Salt's argument order). */
const chainArgs = <T extends Record<string, import('zod').ZodType>>(z: typeof import('zod').z, extra?: T) =>
  z.object({
    table: z.unknown().default('filter'),
    chain: z.unknown().default(null),
    ...(extra as T),
    family: family(z),
  });

export default defineModule({
  name: 'iptables',
  doc: 'Support for iptables: build, check, add and delete rules, chains and policies, save the tables.',
  virtual: () =>
    which('iptables')
      ? true
      : { ok: false, reason: 'The iptables execution module cannot be loaded: iptables not installed.' },
  functions: {
    version: defineFunction({
      args: (z) => z.object({ family: family(z) }),
      doc: "Return the version from iptables --version.\n\nCLI Example: salt '*' iptables.version family=ipv6",
      run: async (ctx, a) => {
        const words = (await runStdout(ctx, `${iptablesCmd(a.family)} --version`))
          .split(/\s+/)
          .filter(Boolean);
        if (words.length < 2) throw new SALT_ERR_EXEC_COMMAND('IndexError: list index out of range');
        return words[1];
      },
    }),
    build_rule: defineFunction({
      args: (z) =>
        chainArgs(z, {
          command: z.unknown().default(null),
          position: z.unknown().default(''),
          full: z.unknown().default(null),
        }),
      varkw: true,
      doc: "Build an iptables rule from keywords (jump, match, connstate, proto, dport, dports, source, comment, '!' or 'not' to negate ...); full=True gives the whole command (table, chain and command needed).\n\nCLI Example: salt '*' iptables.build_rule filter INPUT command=I position=3 full=True match=state connstate=RELATED,ESTABLISHED jump=ACCEPT",
      run: async (ctx, a, extra) => {
        const rule = buildRuleText(extra.kwargs);
        if (!pyTruthy(a.full) || rule.startsWith('Error: ')) return rule;
        if (!pyTruthy(a.table)) return 'Error: Table needs to be specified';
        if (!pyTruthy(a.chain)) return noChain;
        if (!pyTruthy(a.command)) return 'Error: Command needs to be specified';
        const command = pyStr(a.command);
        const flag = 'ACDIRLSFZNXPE'.includes(command) ? '-' : '--';
        const head = await line(ctx, a.family, a.table, `${flag}${command}`);
        return `${head} ${pyStr(a.chain)} ${pyStr(a.position)} ${rule}`;
      },
    }),
    get_saved_rules: defineFunction({
      args: (z) => z.object({ conf_file: z.unknown().default(null), family: family(z) }),
      doc: "Return the rules of the saved rules file (the distribution's by default).\n\nCLI Example: salt '*' iptables.get_saved_rules conf_file=/etc/iptables.saved",
      run: (ctx, a) => parseConf(ctx, { confFile: a.conf_file, family: a.family }),
    }),
    get_rules: defineFunction({
      args: (z) => z.object({ family: family(z) }),
      doc: "Return the current, in-memory rules.\n\nCLI Example: salt '*' iptables.get_rules family=ipv6",
      run: (ctx, a) => parseConf(ctx, { inMem: true, family: a.family }),
    }),
    get_saved_policy: defineFunction({
      args: (z) => chainArgs(z, { conf_file: z.unknown().default(null) }),
      doc: "Return the saved policy of a table's chain.\n\nCLI Example: salt '*' iptables.get_saved_policy filter INPUT conf_file=/etc/iptables.saved",
      run: async (ctx, a) => {
        if (!pyTruthy(a.chain)) return noChain;
        return policyOf(await parseConf(ctx, { confFile: a.conf_file, family: a.family }), a.table, a.chain);
      },
    }),
    get_policy: defineFunction({
      args: (z) => chainArgs(z),
      doc: "Return the current policy of a table's chain.\n\nCLI Example: salt '*' iptables.get_policy filter INPUT",
      run: async (ctx, a) => {
        if (!pyTruthy(a.chain)) return noChain;
        return policyOf(await parseConf(ctx, { inMem: true, family: a.family }), a.table, a.chain);
      },
    }),
    set_policy: defineFunction({
      args: (z) => chainArgs(z, { policy: z.unknown().default(null) }),
      doc: "Set the policy of a table's chain; returns iptables' error output ('' on success).\n\nCLI Example: salt '*' iptables.set_policy filter INPUT ACCEPT",
      run: async (ctx, a) => {
        if (!pyTruthy(a.chain)) return noChain;
        if (!pyTruthy(a.policy)) return 'Error: Policy needs to be specified';
        return runStderr(ctx, await line(ctx, a.family, a.table, `-P ${pyStr(a.chain)} ${pyStr(a.policy)}`));
      },
    }),
    save: defineFunction({
      args: (z) => z.object({ filename: z.unknown().default(null), family: family(z) }),
      doc: "Save the in-memory rules to a file (the distribution's, /etc/iptables/rules.v4 on Debian, by default); iptables.save_filters drops matching lines.\n\nCLI Example: salt '*' iptables.save /etc/sysconfig/iptables",
      run: async (ctx, a) => {
        let file = a.filename;
        if (savedRulesFile(ctx) && !pyTruthy(file)) file = savedRulesFile(ctx, a.family);
        const name = pyStr(file);
        ctx.log.debug(`Saving rules to ${name}`);
        const parent = path.dirname(name);
        if (!existsSync(parent) || !statSync(parent).isDirectory()) await mkdir(parent, { recursive: true });
        const saved = await filterSaved(ctx, await runStdout(ctx, `${iptablesCmd(a.family)}-save`));
        return ctx.call('file.write', [name, saved]);
      },
    }),
    check: defineFunction({
      args: (z) => chainArgs(z, { rule: z.unknown().default(null) }),
      doc: "Check whether a rule (iptables syntax after the chain) is in a table's chain.\n\nCLI Example: salt '*' iptables.check filter INPUT rule='-m state --state RELATED,ESTABLISHED -j ACCEPT'",
      run: (ctx, a) => check(ctx, a.table, a.chain, a.rule, a.family),
    }),
    check_chain: defineFunction({
      args: (z) => chainArgs(z),
      doc: "Check whether a chain exists in a table.\n\nCLI Example: salt '*' iptables.check_chain filter INPUT",
      run: async (ctx, a) => {
        if (!pyTruthy(a.chain)) return noChain;
        const out = await runStdout(ctx, `${iptablesCmd(a.family)}-save -t ${pyStr(a.table)}`);
        return out.includes(`:${pyStr(a.chain)} `);
      },
    }),
    new_chain: defineFunction({
      args: (z) => chainArgs(z),
      doc: "Create a custom chain in a table: True, or iptables' error output.\n\nCLI Example: salt '*' iptables.new_chain filter CUSTOM_CHAIN",
      run: async (ctx, a) => {
        if (!pyTruthy(a.chain)) return noChain;
        const out = await runStderr(ctx, await line(ctx, a.family, a.table, `-N ${pyStr(a.chain)}`));
        return out || true;
      },
    }),
    delete_chain: defineFunction({
      args: (z) => chainArgs(z),
      doc: "Delete a custom chain of a table: True, or iptables' error output.\n\nCLI Example: salt '*' iptables.delete_chain filter CUSTOM_CHAIN",
      run: async (ctx, a) => {
        if (!pyTruthy(a.chain)) return noChain;
        const out = await runStderr(ctx, await line(ctx, a.family, a.table, `-X ${pyStr(a.chain)}`));
        return out || true;
      },
    }),
    append: defineFunction({
      args: (z) => chainArgs(z, { rule: z.unknown().default(null) }),
      doc: "Append a rule (iptables syntax after the chain) to a table's chain unless it is there: True when added.\n\nCLI Example: salt '*' iptables.append filter INPUT rule='-m state --state RELATED,ESTABLISHED -j ACCEPT'",
      run: async (ctx, a) => {
        if (!pyTruthy(a.chain)) return noChain;
        if (!pyTruthy(a.rule)) return noRule;
        const wait = await waitFlag(ctx, a.family);
        if ((await check(ctx, a.table, a.chain, a.rule, a.family)) === true) return false;
        const cmd = `${iptablesCmd(a.family)} ${wait} -t ${pyStr(a.table)} -A ${pyStr(a.chain)} ${pyStr(a.rule)}`;
        return !(await runStderr(ctx, cmd));
      },
    }),
    insert: defineFunction({
      args: (z) => chainArgs(z, { position: z.unknown().default(null), rule: z.unknown().default(null) }),
      doc: "Insert a rule at a position of a table's chain (negative: from the end) unless it is there; returns iptables' error output ('' on success), False when present.\n\nCLI Example: salt '*' iptables.insert filter INPUT position=3 rule='-m state --state RELATED,ESTABLISHED -j ACCEPT'",
      run: async (ctx, a) => {
        if (!pyTruthy(a.chain)) return noChain;
        if (!pyTruthy(a.position)) return 'Error: Position needs to be specified or use append (-A)';
        if (!pyTruthy(a.rule)) return noRule;
        let position = a.position;
        if (typeof position === 'number' && position < 0) {
          const rules = await parseConf(ctx, { inMem: true, family: a.family });
          const table = rules[pyStr(a.table)];
          const chain = table?.[pyStr(a.chain)];
          if (!chain) throw new SALT_ERR_EXEC_COMMAND(`KeyError: '${pyStr(table ? a.chain : a.table)}'`);
          position = Math.max(1, chain.rules.length + position + 1);
        }
        const wait = await waitFlag(ctx, a.family);
        if ((await check(ctx, a.table, a.chain, a.rule, a.family)) === true) return false;
        const rest = `${pyStr(a.chain)} ${pyStr(position)} ${pyStr(a.rule)}`;
        return runStderr(ctx, `${iptablesCmd(a.family)} ${wait} -t ${pyStr(a.table)} -I ${rest}`);
      },
    }),
    delete: defineFunction({
      args: (z) =>
        z.object({
          table: z.unknown(),
          chain: z.unknown().default(null),
          position: z.unknown().default(null),
          rule: z.unknown().default(null),
          family: family(z),
        }),
      doc: "Delete a rule of a table's chain, given whole or by position; returns iptables' error output ('' on success).\n\nCLI Example: salt '*' iptables.delete filter INPUT position=3",
      run: async (ctx, a) => {
        if (pyTruthy(a.position) && pyTruthy(a.rule))
          return 'Error: Only specify a position or a rule, not both';
        const rule = pyTruthy(a.position) ? a.position : a.rule;
        return runStderr(ctx, await line(ctx, a.family, a.table, `-D ${pyStr(a.chain)} ${pyStr(rule)}`));
      },
    }),
    flush: defineFunction({
      args: (z) =>
        z.object({ table: z.unknown().default('filter'), chain: z.unknown().default(''), family: family(z) }),
      doc: "Flush a chain of a table, or every chain of it when none is given; returns iptables' error output ('' on success).\n\nCLI Example: salt '*' iptables.flush filter INPUT",
      run: async (ctx, a) => runStderr(ctx, await line(ctx, a.family, a.table, `-F ${pyStr(a.chain)}`)),
    }),
  },
});
