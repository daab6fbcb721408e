/**
 * A tiny Node package packed with `npm pack` and an empty project folder, in a temp dir, for
 * tests of the npm module and states; and the npm settings that keep them offline.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** npm settings (as environment) under which nothing reaches the registry. */
export const NPM_OFFLINE = {
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

export interface NpmFixture {
  dir: string;
  project: string;
  /** `tsalt-fixture-npm@1.2.3`, packed. */
  tarball: string;
}

export async function makeNpmFixture(): Promise<NpmFixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-npm-'));
  const project = path.join(dir, 'project');
  const fixture = path.join(dir, 'fixture');
  await mkdir(project);
  await mkdir(fixture);
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'proj', version: '1.0.0', private: true }),
  );
  await writeFile(
    path.join(fixture, 'package.json'),
    JSON.stringify({ name: 'tsalt-fixture-npm', version: '1.2.3' }),
  );
  await writeFile(path.join(fixture, 'index.js'), 'module.exports = 42;\n');
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: fixture,
    encoding: 'utf8',
    env: { ...process.env, ...NPM_OFFLINE },
  }).trim();
  return { dir, project, tarball: path.join(dir, name) };
}
