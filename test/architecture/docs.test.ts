/**
 * The README and docs/ as a new user meets them: every page of docs/ is linked from the README's
 * documentation list, every relative link (and its `#anchor`) lands, the option names the README
 * lists are options, and every config example written as a master or minion file loads without
 * an error or an unknown-option warning.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../kernel/config/index.js';
import { masterSchema } from '../../kernel/config/schema-master.js';
import { BUILTIN_OPTION_SETS } from '../../plugins/builtin-options.js';
import { netapiOptionsSchema } from '../../plugins/netapi/config.js';
import { REPO } from '../../tools/local-cluster.js';

const PAGES = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (page: string): string => readFileSync(join(REPO, page), 'utf8');

/** The text outside fenced code blocks and inline code spans. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(markdown: string): Set<string> {
  const headings = prose(markdown.replace(/`/g, '')).match(/^#{1,6} .*$/gm) ?? [];
  return new Set(headings.map((h) => slug(h.replace(/^#+ /, ''))));
}

/** The fenced blocks of one language, with the first line of each. */
function blocks(markdown: string, lang: RegExp): string[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)]
    .filter((m) => lang.test(m[1]!))
    .map((m) => m[2]!);
}

describe('the documentation', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tsalt-docs-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('links every page of docs/ from the README', () => {
    const readme = read('README.md');
    const unlinked = PAGES.filter((p) => p !== 'README.md' && !readme.includes(`](${p})`));
    expect(unlinked).toEqual([]);
  });

  it('has no relative link or anchor that leads nowhere', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const m of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path === '' ? join(REPO, page) : resolve(REPO, dirname(page), path);
        if (!existsSync(file)) broken.push(`${page}: ${target}`);
        else if (
          anchor !== undefined &&
          file.endsWith('.md') &&
          !anchors(readFileSync(file, 'utf8')).has(anchor)
        )
          broken.push(`${page}: ${target} (no such heading in ${relative(REPO, file)})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names only files that exist where it gives a path in the repository', () => {
    const top =
      'kernel|plugins|master|minion|modules|states|returners|outputters|cli|tools|test|bench|packaging|docs|bin|client';
    const path = new RegExp(`\`((?:${top})/[\\w./-]*)\``, 'g');
    const missing: string[] = [];
    for (const page of PAGES) {
      for (const m of read(page).matchAll(path)) {
        const p = m[1]!.replace(/\/$/, '');
        // a path may name the compiled `.js` of a `.ts` source
        if (!existsSync(join(REPO, p)) && !existsSync(join(REPO, p.replace(/\.js$/, '.ts'))))
          missing.push(`${page}: ${p}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names only real options where the README lists them', () => {
    const readme = read('README.md');
    const list = readme.slice(
      readme.indexOf('Option names and defaults are Salt'),
      readme.indexOf('every option is listed'),
    );
    const names = [...list.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !Object.hasOwn(masterSchema.shape, n))).toEqual([]);
  });

  it("lists exactly the REST API's options in docs/config.md", () => {
    const config = read('docs/config.md');
    const table = config.slice(config.indexOf('## REST API options'), config.indexOf('## Minion options'));
    const names = [...table.matchAll(/^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \|/gm)].flatMap((m) =>
      [...m[1]!.matchAll(/`([a-z_]+)`/g)].map((n) => n[1]!),
    );
    expect(names.toSorted()).toEqual(Object.keys(netapiOptionsSchema.shape).toSorted());
  });

  it('has config examples that load without an error or an unknown-option warning', async () => {
    expect(BUILTIN_OPTION_SETS.length).toBeGreaterThan(0); // declares the plugins' options
    const examples: { page: string; kind: 'master' | 'minion'; text: string }[] = [];
    for (const page of PAGES) {
      for (const text of blocks(read(page), /^ya?ml$/)) {
        const first = text.split('\n')[0]!;
        const kind = /^# (\/etc\/salt\/master|master config)/.test(first)
          ? 'master'
          : /^# (\/etc\/salt\/minion|minion config)/.test(first)
            ? 'minion'
            : undefined;
        if (kind) examples.push({ page, kind, text });
      }
    }
    expect(examples.length).toBeGreaterThanOrEqual(6);
    const problems: string[] = [];
    for (const [i, { page, kind, text }] of examples.entries()) {
      const confDir = mkdtempSync(join(tmp, `yaml-${i}-`));
      writeFileSync(join(confDir, kind), text);
      const load = kind === 'master' ? loadConfig('master', confDir) : loadConfig('minion', confDir);
      const loaded = await load.catch((err: Error) => ({ warnings: [err.message] }));
      for (const w of loaded.warnings)
        problems.push(`${page} (${kind} example ${text.split('\n')[0]}): ${w}`);
    }
    expect(problems).toEqual([]);
  });

  it('has a master.config.ts example that loads as written, with the tsalt package beside it', async () => {
    const example = blocks(read('README.md'), /^ts$/).find((b) =>
      b.startsWith('// /etc/salt/master.config.ts'),
    );
    expect(example).toBeDefined();
    const dir = mkdtempSync(join(tmp, 'ts-'));
    writeFileSync(join(dir, 'master.config.ts'), example!);
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(REPO, join(dir, 'node_modules', 'tsalt'));
    const { config, warnings } = await loadConfig('master', dir, {});
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({ interface: '0.0.0.0', auto_accept: false, worker_threads: 4 });
  });
});
