/** Where a Python virtual environment keeps its programs (POSIX layout), as Salt's virtualenv modules look. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';

/** The environment's interpreter, pip and easy_install. */
export function venvPython(venv: string): { python: string; pip: string; setuptools: string } {
  return {
    python: join(venv, 'bin', 'python'),
    pip: join(venv, 'bin', 'pip'),
    setuptools: join(venv, 'bin', 'easy_install'),
  };
}

/** The environment's interpreter, or Salt's error when `venv` has none. */
export function verifyVirtualenv(venv: string): string {
  const bin = venvPython(venv).python;
  if (!existsSync(bin))
    throw new SALT_ERR_EXEC_COMMAND(`Path '${venv}' does not appear to be a virtualenv: '${bin}' not found.`);
  return bin;
}
