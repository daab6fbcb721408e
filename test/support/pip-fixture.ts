/**
 * A throwaway Python virtualenv and a wheel made in it (a wheel is a zip of the package and
 * its dist-info), for tests of the pip module and states: pip installs `tsalt-fixture==1.0`
 * from the wheel folder with --no-index, so no index is reached.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { which } from '../../modules/_which.js';

/** Whether this machine can make a venv with pip in it (Debian: the python3-venv package). */
export const canVenv = (() => {
  if (!which('python3')) return false;
  try {
    execFileSync('python3', ['-c', 'import venv, ensurepip, zipfile'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const WHEEL = `
import sys, zipfile
out = sys.argv[1]
di = 'tsalt_fixture-1.0.dist-info'
files = {
  'tsalt_fixture/__init__.py': 'VALUE = 42\\n',
  di + '/METADATA': 'Metadata-Version: 2.1\\nName: tsalt-fixture\\nVersion: 1.0\\n',
  di + '/WHEEL': 'Wheel-Version: 1.0\\nGenerator: tsalt-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n',
}
with zipfile.ZipFile(out + '/tsalt_fixture-1.0-py3-none-any.whl', 'w') as z:
  for name, text in files.items():
    z.writestr(name, text)
  z.writestr(di + '/RECORD', ''.join(n + ',,\\n' for n in files) + di + '/RECORD,,\\n')
`;

export interface PipFixture {
  dir: string;
  venv: string;
  wheels: string;
}

/** Makes the venv and the wheel folder in a new temp dir (tens of seconds on a loaded machine). */
export async function makePipFixture(): Promise<PipFixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-pip-'));
  const venv = path.join(dir, 'venv');
  const wheels = path.join(dir, 'wheels');
  execFileSync('python3', ['-m', 'venv', venv], { stdio: 'ignore', timeout: 240_000 });
  await mkdir(wheels);
  execFileSync('python3', ['-c', WHEEL, wheels]);
  return { dir, venv, wheels };
}
