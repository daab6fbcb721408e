/**
 * Where saltcheck finds a state's tests (`salt/modules/saltcheck.py`, `StateTestLoader`): for
 * every SLS the state's low data names, the `saltcheck-tests` folder (`saltcheck_test_location`)
 * beside it, its parent's or its formula's, cached with `cp.cache_dir`; the `.tst` files named
 * for that SLS (`<sls>/saltcheck-tests/init.tst`, `<parent>/saltcheck-tests/<last>.tst`,
 * `<formula>/saltcheck-tests/<middle>/<last>.tst`), or every one with `check_all`. Each file is
 * rendered (`slsutil.renderer`) into `{test id: test}`.
 */
import type { ExecContext } from '../kernel/index.js';
import { isMapping } from './_traverse.js';

export class StateTestLoader {
  /** The SLS names whose test folder was found. */
  readonly foundStates: string[] = [];
  #testFiles = new Set<string>();
  #states: string[] | undefined;

  constructor(
    private readonly ctx: ExecContext,
    readonly saltenv: string,
    private readonly location: string,
  ) {}

  /** Salt's `_generate_sls_path`: the folders that may hold `state`'s tests, longest first. */
  #testDirs(state: string): string[] {
    const parts = state.split('.');
    const dirs = new Set([
      `salt://${parts.join('/')}/${this.location}`,
      `salt://${parts.slice(0, -1).join('/')}/${this.location}`,
      `salt://${parts[0]}/${this.location}`,
    ]);
    return [...dirs].sort((a, b) => b.length - a.length);
  }

  async #cacheTests(dir: string, state: string, checkAll: boolean): Promise<string[]> {
    if (this.foundStates.includes(state)) return [];
    const got = await this.ctx.call('cp.cache_dir', [dir], { saltenv: this.saltenv, include_pat: '*.tst' });
    const files = Array.isArray(got) ? got.filter((f): f is string => typeof f === 'string') : [];
    if (files.length > 0) {
      if (checkAll) for (const f of files) this.#testFiles.add(f);
      else this.foundStates.push(state);
    }
    return files;
  }

  /** The file names that hold `sls`'s own tests. */
  #ownTestNames(sls: string): string[] {
    const parts = sls.split('.');
    const last = parts[parts.length - 1];
    const join = (...p: string[]) => p.filter((x) => x !== '').join('/');
    const loc = this.location.replace(/\/+$/, '');
    return [
      join(parts.join('/'), loc, 'init.tst'),
      join(parts.slice(0, -1).join('/'), loc, `${last}.tst`),
      join(parts[0] ?? '', loc, parts.slice(1, -1).join('/'), `${last}.tst`),
    ];
  }

  /** Salt's `add_test_files_for_sls`: finds the tests of `sls` and of every SLS it includes. */
  async addTestFilesForSls(sls: string, checkAll: boolean): Promise<void> {
    this.#states ??=
      ((await this.ctx.call('cp.list_states', [], { saltenv: this.saltenv })) as string[]) ?? [];
    let low: unknown[] = [{ __sls__: sls }];
    if (this.#states.includes(sls)) {
      const got = await this.ctx.call('state.show_low_sls', [sls], { saltenv: this.saltenv, test: true });
      low = Array.isArray(got) ? got : [got];
    }
    let cached: string[] = [];
    for (const chunk of low) {
      if (!isMapping(chunk)) return;
      const state = chunk.__sls__;
      if (typeof state !== 'string') continue;
      for (const dir of this.#testDirs(state)) cached.push(...(await this.#cacheTests(dir, state, checkAll)));
      if (checkAll) continue;
      const names = this.#ownTestNames(state);
      cached = [...new Set(cached)];
      for (const file of [...cached]) {
        if (names.some((n) => file.endsWith(n))) {
          this.#testFiles.add(file);
          cached.splice(cached.indexOf(file), 1);
        }
      }
    }
  }

  /** Salt's `load_test_suite`: the found files rendered, `{test id: test}`, then forgotten. */
  async loadTestSuite(): Promise<Map<string, unknown>> {
    const tests = new Map<string, unknown>();
    for (const file of this.#testFiles) {
      const data = await this.ctx.call('slsutil.renderer', [file], { saltenv: this.saltenv });
      if (isMapping(data)) for (const [id, test] of Object.entries(data)) tests.set(id, test);
    }
    this.#testFiles = new Set();
    return tests;
  }
}
