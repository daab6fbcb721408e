/**
 * The job process a minion forks is its single-module build (tools/build-process-bundle.ts), and
 * that build never makes a second copy of a module: with a loader hook recording every module
 * the minion's processes load, a job process that ran `cmd.run`, a state and `sys.list_modules`
 * (which loads every execution module) loaded none of the bundled modules' own files.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, REPO } from '../../tools/local-cluster.js';

const BUNDLE = join(REPO, 'dist', 'minion', 'bundle', 'job-process.js');

describe("the job process's single-module build", () => {
  const c = new Cluster();
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-loads-'));
  const logs = join(dir, 'loads');

  beforeAll(async () => {
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(logs)} + '/' + process.pid, url + '\\n');\n  return next(url, context);\n}\n`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { mkdirSync } from 'node:fs';\nimport { register } from 'node:module';\nmkdirSync(${JSON.stringify(logs)}, { recursive: true });\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
    );
    await c.startMaster();
    const before = process.env.TSALT_DAEMON_NODE_ARGS;
    process.env.TSALT_DAEMON_NODE_ARGS = `--import=${pathToFileURL(join(dir, 'register.mjs')).href}`;
    try {
      await c.startMinion('bundled');
    } finally {
      if (before === undefined) delete process.env.TSALT_DAEMON_NODE_ARGS;
      else process.env.TSALT_DAEMON_NODE_ARGS = before;
    }
  }, 60_000);
  afterAll(async () => {
    await c.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs jobs, and loads no bundled module a second time from its own file', async () => {
    const run = await c.saltJson(['bundled', 'cmd.run', 'echo bundled']);
    expect(run.data).toEqual({ bundled: 'bundled' });
    const state = await c.saltJson(['bundled', 'state.single', 'test.succeed_without_changes', 'name=b']);
    expect(JSON.stringify(state.data)).toContain('"result":true');
    const mods = await c.saltJson(['bundled', 'sys.list_modules']);
    expect(mods.data.bundled).toEqual(expect.arrayContaining(['cmd', 'file', 'state', 'test']));

    const bundleUrl = pathToFileURL(BUNDLE).href;
    const jobProcesses = readdirSync(logs)
      .map((pid) => readFileSync(join(logs, pid), 'utf8').split('\n').filter(Boolean))
      .filter((urls) => urls.includes(bundleUrl));
    expect(jobProcesses.length).toBeGreaterThan(0);
    const bundled = (JSON.parse(readFileSync(`${BUNDLE}.modules.json`, 'utf8')) as string[]).map(
      (f) => pathToFileURL(join(REPO, 'dist', f)).href,
    );
    expect(bundled).toContain(pathToFileURL(join(REPO, 'dist', 'minion', 'run-function.js')).href);
    for (const urls of jobProcesses) {
      // the hook saw the modules the bundle imports
      expect(urls).toContain(pathToFileURL(join(REPO, 'dist', 'kernel', 'errors.js')).href);
      expect(urls.filter((u) => bundled.includes(u))).toEqual([]);
    }
    // and the plugins the jobs ran, in the job process that ran them (on a loaded machine a
    // second one may have started and run nothing yet)
    const cmd = pathToFileURL(join(REPO, 'dist', 'modules', 'cmd.js')).href;
    expect(jobProcesses.some((urls) => urls.includes(cmd))).toBe(true);
  }, 60_000);
});
