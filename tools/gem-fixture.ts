/**
 * Throwaway Ruby gems for the gem module's tests and its comparison with Salt: gemspecs written
 * to a temp dir, built with `gem build`, indexed with `gem generate_index` as a local gem source
 * (`file://`), and the environment (GEM_HOME, GEM_PATH, GEMRC, GEM_SPEC_CACHE) under which
 * `gem` installs into, lists and configures only that dir: the system's gems and root's gemrc
 * are never touched and nothing reaches the network.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The gems built, name to versions (one a pre-release). */
export const FIXTURE_GEMS: Readonly<Record<string, readonly string[]>> = {
  'tsalt-gemfix-a': ['1.0.0', '1.1.0', '2.0.0.pre1'],
  'tsalt-gemfix-b': ['0.1.0'],
};

export interface GemFixture {
  dir: string;
  /** The local gem source, `file://<dir>/repo/` (the gemrc's only source). */
  source: string;
  /** A copy of it, `file://<dir>/repo2/`, for adding and removing a source. */
  source2: string;
  /** Environment under which `gem` works in `dir` alone. */
  env: Record<string, string>;
  /** A `gem` wrapper that sets `env` itself, for `gem_bin`. */
  gemBin: string;
}

function gemspec(name: string, version: string): string {
  return [
    'Gem::Specification.new do |s|',
    `  s.name = '${name}'`,
    `  s.version = '${version}'`,
    "  s.summary = 'A throwaway gem for tsalt tests'",
    "  s.authors = ['tsalt']",
    "  s.license = 'Apache-2.0'",
    '  s.files = []',
    'end',
    '',
  ].join('\n');
}

/** Writes the gem's environment under `dir` (a gemrc naming `source`), the gem home empty. */
function gemEnv(dir: string, source: string): Record<string, string> {
  const home = path.join(dir, 'gem-home');
  mkdirSync(home, { recursive: true });
  const gemrc = path.join(dir, 'gemrc');
  writeFileSync(gemrc, `---\n:sources:\n- ${source}\n`);
  return { GEM_HOME: home, GEM_PATH: home, GEMRC: gemrc, GEM_SPEC_CACHE: path.join(dir, 'spec-cache') };
}

/** Builds the fixture gems and their source index in a new temp dir (or `dir`). */
export function makeGemFixture(dir = mkdtempSync(path.join(os.tmpdir(), 'tsalt-t-gem-'))): GemFixture {
  const repo = path.join(dir, 'repo');
  const build = path.join(dir, 'build');
  mkdirSync(path.join(repo, 'gems'), { recursive: true });
  mkdirSync(build, { recursive: true });
  for (const [name, versions] of Object.entries(FIXTURE_GEMS)) {
    for (const v of versions) {
      writeFileSync(path.join(build, `${name}.gemspec`), gemspec(name, v));
      const out = path.join(repo, 'gems', `${name}-${v}.gem`);
      execFileSync('gem', ['build', `${name}.gemspec`, '-o', out], { cwd: build, stdio: 'ignore' });
    }
  }
  execFileSync('gem', ['generate_index', '-d', repo], { stdio: 'ignore' });
  cpSync(repo, path.join(dir, 'repo2'), { recursive: true });
  const source = `file://${repo}/`;
  const env = gemEnv(dir, source);
  const gemBin = path.join(dir, 'gem-wrapper');
  const exports = Object.entries(env).map(([k, v]) => `export ${k}='${v}'`);
  writeFileSync(gemBin, ['#!/bin/sh', ...exports, 'exec gem "$@"', ''].join('\n'));
  chmodSync(gemBin, 0o755);
  return { dir, source, source2: `file://${path.join(dir, 'repo2')}/`, env, gemBin };
}

/** Empties the fixture's gem home and rewrites its gemrc, as new. */
export function resetGemFixture(fx: GemFixture): void {
  for (const d of [fx.env.GEM_HOME, fx.env.GEM_SPEC_CACHE])
    rmSync(d as string, { recursive: true, force: true });
  gemEnv(fx.dir, fx.source);
}
