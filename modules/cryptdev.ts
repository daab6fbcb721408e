/**
 * Salt's `cryptdev` execution module (`salt/modules/cryptdev.py`): the crypt mappings
 * device-mapper has (`dmsetup ls --target crypt`), the crypttab file (list, set, remove an
 * entry) and `cryptsetup open`/`close`, each command run through `cmd.*` as Salt's.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyRepr, pyStr } from '../kernel/util.js';
import {
  CRYPTTAB_KEYS,
  type CrypttabCriteria,
  type CrypttabEntry,
  type CrypttabKey,
  crypttabMatches,
  formatCrypttabLine,
  parseCrypttabLine,
} from './_crypttab.js';
import { readLines } from './_file-diff.js';
import { pyOsError } from './_py-oserror.js';

const isFile = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** The file's lines with their ends, or Salt's error for one it cannot read. */
function readConfig(config: string, verb: string): string[] {
  try {
    return readLines(readFileSync(config, 'utf8'));
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(`${verb} from ${config}: ${pyOsError(err, config)}`);
  }
}

export interface ActiveCrypt {
  devname: string;
  major: string;
  minor: string;
}

/** Salt's `active`: the crypt mappings `dmsetup` lists, by name. */
export async function active(ctx: ExecContext): Promise<Record<string, ActiveCrypt>> {
  const out = String(await ctx.call('cmd.run_stdout', ['dmsetup ls --target crypt']));
  const ret: Record<string, ActiveCrypt> = {};
  for (const line of out.split('\n')) {
    const m = /^(\S+)\s+\((\d+), (\d+)\)/.exec(line);
    if (m) ret[m[1]!] = { devname: m[1]!, major: m[2]!, minor: m[3]! };
    else ctx.log.warn('dmsetup output does not match expected format');
  }
  return ret;
}

export interface CrypttabListing {
  device: string;
  password: string;
  options: string[];
}

/** Salt's `crypttab`: the file's entries by name (a repeated name gets `_` appended). */
export function crypttab(config = '/etc/crypttab'): Record<string, CrypttabListing> {
  const ret: Record<string, CrypttabListing> = {};
  if (!isFile(config)) return ret;
  for (const line of readLines(readFileSync(config, 'utf8'))) {
    const entry = parseCrypttabLine(line.replace(/\n$/, ''));
    if (!entry) continue;
    let name = entry.name;
    while (Object.hasOwn(ret, name)) name += '_';
    ret[name] = { device: entry.device, password: entry.password, options: entry.options.split(',') };
  }
  return ret;
}

/** Salt's `rm_crypttab`: 'change' when the named entry was removed, else 'absent'. */
export function rmCrypttab(name: string, config = '/etc/crypttab'): 'change' | 'absent' {
  let modified = false;
  const kept: string[] = [];
  for (const line of readConfig(config, 'Could not read')) {
    const entry = parseCrypttabLine(line);
    if (entry && entry.name === name) modified = true;
    else kept.push(line);
  }
  if (modified) {
    try {
      writeFileSync(config, kept.join(''));
    } catch (err) {
      throw new SALT_ERR_EXEC_COMMAND(`Could not write to ${config}: ${pyOsError(err, config)}`);
    }
  }
  return modified ? 'change' : 'absent';
}

/** Salt's `options` argument: a string, a list joined by commas, or none. */
function optionsText(options: unknown): string {
  if (options === null || options === undefined) return '';
  if (typeof options === 'string') return options;
  if (Array.isArray(options)) return options.map(pyStr).join(',');
  throw new SALT_ERR_EXEC_COMMAND('options must be a string or list of strings');
}

/** The keys to match on, or Salt's error for a value that is no key list. */
function matchKeys(matchOn: unknown): CrypttabKey[] {
  const keys = typeof matchOn === 'string' ? [matchOn] : matchOn;
  if (!Array.isArray(keys)) throw new SALT_ERR_EXEC_COMMAND('match_on must be a string or list of strings');
  const bad = keys.filter((k) => !(CRYPTTAB_KEYS as readonly unknown[]).includes(k));
  // Salt shows a Python filter object here; the unknown keys themselves say more
  if (bad.length) throw new SALT_ERR_EXEC_COMMAND(`Unrecognized keys in match_on: "${pyRepr(bad)}"`);
  return keys as CrypttabKey[];
}

export interface SetCrypttabOptions {
  password?: unknown;
  options?: unknown;
  config?: string;
  test?: boolean;
  match_on?: unknown;
}

/** Salt's `set_crypttab`: 'present', 'change' or 'new' for the entry (written unless `test`). */
export function setCrypttab(
  name: string,
  device: string,
  o: SetCrypttabOptions = {},
): 'present' | 'change' | 'new' {
  const config = o.config ?? '/etc/crypttab';
  const password = o.password === null || o.password === undefined ? 'none' : pyStr(o.password);
  const entry: CrypttabEntry = { name, device, password, options: optionsText(o.options) };
  const criteria: CrypttabCriteria = {};
  for (const k of matchKeys(o.match_on ?? 'name')) criteria[k] = entry[k];
  if (!isFile(config)) throw new SALT_ERR_EXEC_COMMAND(`Bad config file "${config}"`);
  let ret: 'present' | 'change' | 'new' | undefined;
  const lines: string[] = [];
  for (const line of readConfig(config, "Couldn't read")) {
    const found = parseCrypttabLine(line);
    if (found && crypttabMatches(criteria, found)) {
      ret = 'present';
      if (crypttabMatches(entry, found)) lines.push(line);
      else {
        ret = 'change';
        lines.push(formatCrypttabLine(entry));
      }
    } else lines.push(line);
  }
  if (ret === undefined) {
    lines.push(formatCrypttabLine(entry));
    ret = 'new';
  }
  if (ret !== 'present' && !o.test) {
    try {
      writeFileSync(config, lines.join(''));
    } catch {
      throw new SALT_ERR_EXEC_COMMAND(`File not writable ${config}`);
    }
  }
  return ret;
}

/** A shell word for a `cmd.retcode` command line (Salt pastes the values in unquoted). */
const word = (v: unknown) => pyStr(v);

export default defineModule({
  name: 'cryptdev',
  doc: 'Salt module to manage Unix cryptsetup jobs and the crypttab file',
  virtual: () =>
    process.platform === 'win32'
      ? { ok: false, reason: 'The cryptdev module cannot be loaded: not a POSIX-like system' }
      : true,
  functions: {
    active: defineFunction({
      args: (z) => z.object({}),
      doc: `List existing device-mapper device details.

CLI Example:

    salt '*' cryptdev.active`,
      run: (ctx) => active(ctx),
    }),
    crypttab: defineFunction({
      args: (z) => z.object({ config: z.string().default('/etc/crypttab') }),
      doc: `List the contents of the crypttab

CLI Example:

    salt '*' cryptdev.crypttab`,
      run: (_ctx, a) => crypttab(a.config),
    }),
    rm_crypttab: defineFunction({
      args: (z) =>
        z.object({ name: z.unknown().transform(pyStr), config: z.string().default('/etc/crypttab') }),
      doc: `Remove the named mapping from the crypttab. Returns 'change' when a line was removed,
'absent' when there was none.

CLI Example:

    salt '*' cryptdev.rm_crypttab foo`,
      run: (_ctx, a) => rmCrypttab(a.name, a.config),
    }),
    set_crypttab: defineFunction({
      args: (z) =>
        z.object({
          name: z.unknown().transform(pyStr),
          device: z.unknown().transform(pyStr),
          password: z.unknown().default('none'),
          options: z.unknown().default(''),
          config: z.string().default('/etc/crypttab'),
          test: z.boolean().default(false),
          match_on: z.unknown().default('name'),
        }),
      doc: `Make the crypttab hold this mapping: change the entry that matches it (by \`match_on\`,
the name by default) or add one. Returns 'present', 'change' or 'new'.

CLI Example:

    salt '*' cryptdev.set_crypttab foo /dev/sdz1 mypassword swap,size=256`,
      run: (_ctx, a) => setCrypttab(a.name, a.device, a),
    }),
    open: defineFunction({
      args: (z) => z.object({ name: z.unknown(), device: z.unknown(), keyfile: z.unknown() }),
      doc: `Open a crypt device using cryptsetup. The keyfile must not be none: cryptsetup would
ask for the password.

CLI Example:

    salt '*' cryptdev.open foo /dev/sdz1 /etc/keyfile.key`,
      run: async (ctx, a) => {
        if (a.keyfile === null || a.keyfile === undefined || a.keyfile === 'none' || a.keyfile === '-')
          throw new SALT_ERR_EXEC_COMMAND('For immediate crypt device mapping, keyfile must not be none');
        const cmd = `cryptsetup open --key-file ${word(a.keyfile)} ${word(a.device)} ${word(a.name)}`;
        return (await ctx.call('cmd.retcode', [cmd])) === 0;
      },
    }),
    close: defineFunction({
      args: (z) => z.object({ name: z.unknown() }),
      doc: `Close a crypt device using cryptsetup.

CLI Example:

    salt '*' cryptdev.close foo`,
      run: async (ctx, a) => (await ctx.call('cmd.retcode', [`cryptsetup close ${word(a.name)}`])) === 0,
    }),
  },
});
