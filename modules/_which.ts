/**
 * Salt's `salt.utils.path.which`: the first executable file named `exe` on `PATH` (plus the
 * usual system directories Salt appends), or the name itself when it is already one.
 */
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import path from 'node:path';

const EXTENDED_PATH = ['/sbin', '/bin', '/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin'];

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function expandVars(dir: string, env: NodeJS.ProcessEnv): string {
  return dir.replace(/\$(\w+)|\$\{(\w+)\}/g, (m, a: string | undefined, b: string | undefined) => {
    const v = env[a ?? b ?? ''];
    return v === undefined ? m : v;
  });
}

/** The path of `exe` as Salt's `which` finds it, or `null`. */
export function which(exe: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (!exe) return null;
  if (isExecutable(exe)) return exe;
  const dirs = (env.PATH ?? '').split(':');
  const seen = new Set(dirs);
  for (const d of EXTENDED_PATH) if (!seen.has(d)) dirs.push(d);
  for (const dir of dirs) {
    const candidate = path.join(expandVars(dir, env), exe);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}
