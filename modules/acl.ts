/**
 * Salt's `acl` execution module (`salt/modules/linux_acl.py`): POSIX file ACLs read with
 * `getfacl` (parsed into Salt's verbose map) and changed with `setfacl`.
 */
import {
  defineFunction,
  defineModule,
  type ExecContext,
  type ExtraArgs,
  SALT_ERR_EXEC_COMMAND,
} from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { which } from './_which.js';

/** One ACL entry's rights as Salt reads them (the effective rights where getfacl shows them). */
export interface AclPerms {
  permissions: { read: boolean; write: boolean; execute: boolean };
  octal: number;
}

/** Entries keyed by user or group name (`''` for `mask` and `other`). */
export type AclEntries = Record<string, AclPerms>[];

/** One file's ACLs as `acl.getfacl` returns them. */
export interface FileAcl {
  comment: Record<string, string>;
  user: AclEntries;
  group: AclEntries;
  suid?: boolean;
  sgid?: boolean;
  sticky?: boolean;
  mask?: AclEntries;
  other?: AclEntries;
  defaults?: Record<string, AclEntries>;
}

/** Salt's parse of one rule line: its kind, whom it names and its rights (the last field). */
function parseRule(line: string, owner: string, group: string) {
  const comps = line.split(':');
  const isDefault = comps[0] === 'default';
  if (isDefault) comps.shift();
  const kind = comps[0] ?? '';
  let who = comps[1] ?? '';
  if (kind === 'user' && who === '') who = owner;
  else if (kind === 'group' && who === '') who = group;
  const rights = comps[comps.length - 1] ?? '';
  const read = rights.includes('r');
  const write = rights.includes('w');
  const execute = rights.includes('x');
  const perms: AclPerms = {
    permissions: { read, write, execute },
    octal: (read ? 4 : 0) + (write ? 2 : 0) + (execute ? 1 : 0),
  };
  return { isDefault, kind, who, perms };
}

/** `getfacl --absolute-names` output as Salt's map of file to ACLs; error lines are skipped. */
export function parseGetfacl(out: string): Record<string, FileAcl> {
  const ret: Record<string, FileAcl> = {};
  let file: FileAcl | undefined;
  for (const line of out.split(/\r?\n/)) {
    if (!line || line.startsWith('getfacl')) continue;
    if (line.startsWith('#')) {
      const comps = line.replaceAll('# ', '').split(': ');
      const key = comps[0] ?? '';
      const value = comps[1] ?? '';
      if (key === 'file') {
        file = { comment: {}, user: [], group: [] };
        ret[value] = file;
      }
      if (!file) continue;
      file.comment[key] = value;
      if (key === 'flags') {
        if (value[0] === 's') file.suid = true;
        if (value[1] === 's') file.sgid = true;
        if (value[2] === 't') file.sticky = true;
      }
      continue;
    }
    if (!file) continue;
    const { isDefault, kind, who, perms } = parseRule(
      line,
      file.comment.owner ?? '',
      file.comment.group ?? '',
    );
    const entry = { [kind === 'user' || kind === 'group' ? who : '']: perms };
    if (kind !== 'user' && kind !== 'group' && kind !== 'other' && kind !== 'mask') continue;
    if (!isDefault) {
      if (kind === 'user' || kind === 'group') file[kind].push(entry);
      else file[kind] = [entry];
      continue;
    }
    file.defaults ??= {};
    const list = file.defaults[kind] ?? [];
    if (kind === 'user' || kind === 'group') list.push(entry);
    file.defaults[kind] = kind === 'user' || kind === 'group' ? list : [entry];
  }
  return ret;
}

/** Salt's `_acl_prefix`: `u`, `g`, `m` (or nothing) for the ACL type, `d:` first for a default. */
export function aclPrefix(aclType: string): string {
  let prefix = '';
  let type = aclType;
  if (type.startsWith('d')) {
    prefix = 'd:';
    type = type.replace('default:', '').replace('d:', '');
  }
  if (type === 'user' || type === 'u') prefix += 'u';
  else if (type === 'group' || type === 'g') prefix += 'g';
  else if (type === 'mask' || type === 'm') prefix += 'm';
  return prefix;
}

function files(extra: ExtraArgs): string[] {
  if (extra.args.length === 0)
    throw new SALT_ERR_EXEC_COMMAND('You need to specify at least one file or directory to work with!');
  return extra.args.map(pyStr);
}

const recursive = (extra: ExtraArgs): string[] => (pyTruthy(extra.kwargs.recursive) ? ['-R'] : []);

/** `cmd.run` of a program with its arguments (stderr into stdout, as Salt's `cmd.run`). */
const run = (ctx: ExecContext, argv: string[], raiseErr = false) =>
  ctx.call('cmd.run', [argv], { python_shell: false, raise_err: raiseErr }) as Promise<string>;

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' acl.${example}`;

export default defineModule({
  name: 'acl',
  doc: 'POSIX file access control lists (getfacl and setfacl).',
  virtual: () =>
    which('getfacl') !== null || {
      ok: false,
      reason: 'The linux_acl execution module cannot be loaded: the getfacl binary is not in the path.',
    },
  functions: {
    version: defineFunction({
      doc: `The version getfacl --version prints.${cli('version')}`,
      run: async (ctx) => {
        const first = (await run(ctx, ['getfacl', '--version'])).split(/\r?\n/)[0] ?? '';
        return (first.trim().split(/\s+/)[1] ?? '').trim();
      },
    }),
    getfacl: defineFunction({
      varargs: true,
      varkw: true,
      doc: `Every ACL of the files (recursive=True for a tree), as a map of file to its owner, group, flags and entries.${cli('getfacl /tmp/house/kitchen /tmp/house/livingroom recursive=True')}`,
      run: async (ctx, _a, extra) => {
        const paths = files(extra);
        return parseGetfacl(await run(ctx, ['getfacl', '--absolute-names', ...recursive(extra), ...paths]));
      },
    }),
    wipefacls: defineFunction({
      varargs: true,
      varkw: true,
      doc: `Remove every ACL entry from the files (recursive=True for a tree).${cli('wipefacls /tmp/house/kitchen')}`,
      run: async (ctx, _a, extra) => {
        const paths = files(extra);
        await run(ctx, ['setfacl', '-b', ...recursive(extra), ...paths]);
        return true;
      },
    }),
    modfacl: defineFunction({
      args: (z) =>
        z.object({
          acl_type: z.unknown(),
          acl_name: z.unknown().default(''),
          perms: z.unknown().default(''),
        }),
      varargs: true,
      varkw: true,
      doc: `Add or change an ACL entry (type user/group/mask or u/g/m, default: or d: first for a default entry) on the files; raise_err=True fails when setfacl does.${cli('modfacl user myuser rwx /tmp/house/kitchen')}`,
      run: async (ctx, a, extra) => {
        const paths = files(extra);
        const spec = `${aclPrefix(pyStr(a.acl_type))}:${pyStr(a.acl_name)}:${pyStr(a.perms)}`;
        await run(
          ctx,
          ['setfacl', ...recursive(extra), '-m', spec, ...paths],
          pyTruthy(extra.kwargs.raise_err),
        );
        return true;
      },
    }),
    delfacl: defineFunction({
      args: (z) => z.object({ acl_type: z.unknown(), acl_name: z.unknown().default('') }),
      varargs: true,
      varkw: true,
      doc: `Remove an ACL entry from the files.${cli('delfacl default:group mygroup /tmp/house/kitchen')}`,
      run: async (ctx, a, extra) => {
        const paths = files(extra);
        const spec = `${aclPrefix(pyStr(a.acl_type))}:${pyStr(a.acl_name)}`;
        await run(ctx, ['setfacl', ...recursive(extra), '-x', spec, ...paths]);
        return true;
      },
    }),
  },
});
