/**
 * Salt's `aliases` execution module (salt/modules/aliases.py): the mail aliases file,
 * `/etc/aliases` or the minion option `aliases.file`. Lines are read with Salt's pattern
 * (`alias: target  # comment`); a line it cannot read is kept as a comment. A change is
 * written to a temporary file beside it (same mode and owner) and renamed over it, and
 * `newaliases` runs when it is installed.
 */
import { chmod, chown, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { runProcess } from './_spawn.js';
import { randomName } from './_temp-name.js';
import { which } from './_which.js';

/** alias, target, trailing comment (or the whole line when the pattern does not fit). */
type Line = [alias: string | null, target: string | string[] | null, comment: string];

// Python's `$` also matches before a final newline; the lookahead stands in for it.
const ALIAS_LINE = /^([^:#]*)\s*:?\s*([^#]*?)(\s+#[^\n]*|(?=\n?$))/;

async function aliasesFile(ctx: ExecContext): Promise<string> {
  const v = ctx.opts['aliases.file'];
  const file = path.resolve(typeof v === 'string' && v ? v : '/etc/aliases');
  return realpath(file).catch(() => file);
}

async function parse(ctx: ExecContext): Promise<Line[]> {
  const file = await aliasesFile(ctx);
  let text: string;
  try {
    if (!(await stat(file)).isFile()) return [];
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  const lines = text.replace(/\r\n?/g, '\n').split(/(?<=\n)/);
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line): Line => {
    const m = ALIAS_LINE.exec(line);
    return m ? [m[1] ?? '', m[2] ?? '', m[3] ?? ''] : [null, null, line.trim()];
  });
}

async function writeAliases(ctx: ExecContext, lines: Line[]): Promise<true> {
  const file = await aliasesFile(ctx);
  const tmp = path.join(path.dirname(file), `tmp${randomName()}`);
  const text = lines
    .map(([alias, target, comment]) => {
      const t = Array.isArray(target) ? target.join(', ') : target;
      return alias && t ? `${alias}: ${t}${comment}\n` : `${comment}\n`;
    })
    .join('');
  try {
    await writeFile(tmp, text, { flag: 'wx', mode: 0o600 });
    const st = await stat(file).catch(() => undefined);
    if (st?.isFile()) {
      await chmod(tmp, st.mode & 0o7777);
      await chown(tmp, st.uid, st.gid);
    } else {
      await chmod(tmp, 0o644);
      await chown(tmp, 0, 0);
    }
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  const newaliases = which('newaliases');
  if (newaliases) {
    await runProcess({
      argv: [newaliases],
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdin: null,
      timeoutMs: 60_000,
      signal: ctx.signal,
    });
  }
  return true;
}

async function listAliases(ctx: ExecContext): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [alias, target] of await parse(ctx)) if (alias) out[alias] = String(target ?? '');
  return out;
}

const getTarget = async (ctx: ExecContext, alias: unknown): Promise<string> => {
  const all = await listAliases(ctx);
  return typeof alias === 'string' && Object.hasOwn(all, alias) ? (all[alias] ?? '') : '';
};

const target = (z: typeof import('zod').z) => z.union([z.string(), z.array(z.string())]);

export default defineModule({
  name: 'aliases',
  doc: 'Manage the mail aliases file (/etc/aliases, or the minion option aliases.file).',
  functions: {
    list_aliases: defineFunction({
      doc: "The aliases in the file, {alias: target}.\n\nCLI Example:\n\n    salt '*' aliases.list_aliases",
      outputter: 'yaml',
      run: (ctx) => listAliases(ctx),
    }),
    get_target: defineFunction({
      args: (z) => z.object({ alias: z.unknown() }),
      doc: 'The target of an alias, or "" when there is no such alias.\n\nCLI Example:\n\n    salt \'*\' aliases.get_target alias',
      outputter: 'txt',
      run: (ctx, a) => getTarget(ctx, a.alias),
    }),
    has_target: defineFunction({
      args: (z) => z.object({ alias: z.unknown(), target: target(z) }),
      doc: 'True when the alias points at exactly this target (a list is joined with ", ").\n\nCLI Example:\n\n    salt \'*\' aliases.has_target alias target',
      outputter: 'txt',
      run: async (ctx, a) => {
        if (a.target === '') throw new SALT_ERR_INVOCATION('target can not be an empty string');
        const all = await listAliases(ctx);
        if (typeof a.alias !== 'string' || !Object.hasOwn(all, a.alias)) return false;
        return (Array.isArray(a.target) ? a.target.join(', ') : a.target) === all[a.alias];
      },
    }),
    set_target: defineFunction({
      args: (z) => z.object({ alias: z.string(), target: target(z) }),
      doc: 'Point an alias at a target (a list is written joined with ", "), adding the alias when missing; True.\n\nCLI Example:\n\n    salt \'*\' aliases.set_target alias target',
      outputter: 'txt',
      run: async (ctx, a) => {
        if (a.alias === '') throw new SALT_ERR_INVOCATION('alias can not be an empty string');
        if (a.target === '') throw new SALT_ERR_INVOCATION('target can not be an empty string');
        if ((await getTarget(ctx, a.alias)) === a.target) return true;
        const out: Line[] = [];
        let done = false;
        for (const line of await parse(ctx)) {
          if (line[0] !== a.alias) out.push(line);
          else if (!done) {
            out.push([a.alias, a.target, line[2]]);
            done = true;
          }
        }
        if (!done) out.push([a.alias, a.target, '']);
        return writeAliases(ctx, out);
      },
    }),
    rm_alias: defineFunction({
      args: (z) => z.object({ alias: z.string() }),
      doc: "Remove an alias from the file; True (also when it was not there).\n\nCLI Example:\n\n    salt '*' aliases.rm_alias alias",
      outputter: 'txt',
      run: async (ctx, a) => {
        if (!(await getTarget(ctx, a.alias))) return true;
        return writeAliases(
          ctx,
          (await parse(ctx)).filter(([alias]) => alias !== a.alias),
        );
      },
    }),
  },
});
