/**
 * tsalt's zod (packages/zod, built by build-zod.ts from the real zod installed as
 * `zod-upstream`): the same exports as zod's own entries, one copy of zod's classes from every
 * path tsalt and a plugin import it by, English messages by default, the other locales when
 * asked. Runs against the build (`npm run build` makes packages/zod/dist).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRIES, localeFiles, localesModule } from './build-zod.js';
import { REPO } from './local-cluster.js';

const names = (ns: object) => Object.keys(ns).sort();

/** Runs an ES module script with `node` in `cwd` and returns what it printed as JSON. */
function nodeJson(script: string, cwd: string): unknown {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

describe("tsalt's zod", () => {
  it('exports what each of zod’s own entries exports', async () => {
    for (const [entry, upstream] of Object.entries(ENTRIES)) {
      const sub = entry === 'index' ? '' : `/${entry.replace(/\/index$/, '')}`;
      const ours = (await import(`zod${sub}`)) as object;
      const theirs = (await import(upstream)) as object;
      expect({ entry, names: names(ours) }).toEqual({ entry, names: names(theirs) });
    }
    const { z } = await import('zod');
    const upstream = await import('zod-upstream');
    expect(names(z.locales)).toEqual(names(upstream.z.locales));
    expect(names(z.core)).toEqual(names(upstream.z.core));
  });

  it('is one copy: zod, zod/v4, zod/v4/core, zod/mini and a plugin’s import share their classes', async () => {
    const { z } = await import('zod');
    const v4 = await import('zod/v4');
    const core = await import('zod/v4/core');
    const mini = await import('zod/mini');
    expect(v4.z.ZodString).toBe(z.ZodString);
    expect(core.$ZodType).toBe(z.core.$ZodType);
    expect(core.globalRegistry).toBe(z.globalRegistry);
    expect(mini.z.core.$ZodString).toBe(core.$ZodString);
    // a plugin package in node_modules and tsalt's kernel resolve `zod` to the same file
    const kernel = join(REPO, 'dist', 'kernel');
    const plugin = join(REPO, 'node_modules', 'tsalt-ext-acme');
    const resolveZod = "process.stdout.write(JSON.stringify(import.meta.resolve('zod')))";
    expect(nodeJson(resolveZod, plugin)).toBe(nodeJson(resolveZod, kernel));
  });

  it('loads as a few files, without the locales', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsalt-zod-'));
    try {
      const list = join(dir, 'loaded');
      // a load hook (in Node's hooks thread) notes each module's URL
      const hook = `import { appendFileSync } from 'node:fs';
        export async function load(url, context, next) { appendFileSync(${JSON.stringify(list)}, url + '\\n'); return next(url, context); }`;
      const script = `import { register } from 'node:module';
        register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
        const { z } = await import('zod');
        z.object({ a: z.string() }).parse({ a: 'x' });
        process.stdout.write('1');`;
      expect(nodeJson(script, REPO)).toBe(1);
      const zod = readFileSync(list, 'utf8')
        .split('\n')
        .filter((url) => /\/zod(-upstream)?\//.test(url));
      expect(zod.length).toBeGreaterThan(0);
      expect(zod.length).toBeLessThanOrEqual(8);
      expect(zod.filter((url) => /locales/.test(url))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('speaks English by default, and another locale when configured, then English again', async () => {
    const { z } = await import('zod');
    const de = (await import('zod/v4/locales/de.js')) as { default: () => unknown };
    const message = () => z.number().safeParse('x').error?.issues[0]?.message;
    expect(message()).toBe('Invalid input: expected number, received string');
    try {
      z.config(z.locales.de());
      expect(message()).toBe('Ungültige Eingabe: erwartet Zahl, erhalten string');
      z.config(de.default() as Parameters<typeof z.config>[0]);
      expect(message()).toBe('Ungültige Eingabe: erwartet Zahl, erhalten string');
    } finally {
      z.config(z.locales.en());
    }
    expect(message()).toBe('Invalid input: expected number, received string');
  });

  it('reads the locales index and writes the stand-in for it', () => {
    const locales = localeFiles(
      'export { default as ar } from "./ar.js";\nexport { default as en } from "./en.js";\nexport { default as zhCN } from "./zh-CN.js";\n',
    );
    expect([...locales]).toEqual([
      ['ar', 'ar'],
      ['en', 'en'],
      ['zhCN', 'zh-CN'],
    ]);
    const text = localesModule(locales);
    expect(text).toContain("export { default as en } from 'zod-upstream/v4/locales/en.js';");
    expect(text).toContain('export const zhCN = lazy("zh-CN");');
    expect(text).not.toContain('export const en');
  });
});
