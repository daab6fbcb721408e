/**
 * Keeps docs/errors.md and the code in step: every `SALT_ERR_*` code string in the sources has
 * an entry, every entry is still used, and every class of the catalog has the code it is named by.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as catalog from '../../kernel/errors.js';
import { SaltError } from '../../kernel/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE_DIRS = [
  'kernel',
  'master',
  'minion',
  'client',
  'modules',
  'returners',
  'plugins',
  'outputters',
  'cli',
  'tools',
];
const SKIP_DIRS = new Set(['node_modules', 'dist', '__fixtures__', 'fixtures']);
const CODE = /SALT_ERR_[A-Z0-9_]*[A-Z0-9]/g;
/** A documented code: a table row that starts with the code in backticks. */
const DOC_ENTRY = /^\|\s*`(SALT_ERR_[A-Z0-9_]+)`\s*\|/;

function isSource(name: string): boolean {
  return /\.(ts|mts|js|mjs)$/.test(name) && !/\.test(-d)?\.[mc]?[jt]s$/.test(name) && !name.endsWith('.d.ts');
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) sourceFiles(join(dir, e.name), out);
    } else if (e.isFile() && isSource(e.name)) out.push(join(dir, e.name));
  }
  return out;
}

/**
 * The `SALT_ERR_*` codes in the string literals of one file (plain strings and template
 * pieces). Comments are not code: JSDoc examples such as `SALT_ERR_X` do not count.
 */
function codesInStrings(path: string): Set<string> {
  const text = readFileSync(path, 'utf8');
  const found = new Set<string>();
  if (!text.includes('SALT_ERR_')) return found;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      for (const m of node.text.matchAll(CODE)) found.add(m[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** code → files (relative to the repo) whose string literals hold it. */
function usedCodes(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const dir of SOURCE_DIRS) {
    for (const file of sourceFiles(join(ROOT, dir))) {
      for (const code of codesInStrings(file)) {
        const files = used.get(code) ?? [];
        files.push(relative(ROOT, file));
        used.set(code, files);
      }
    }
  }
  return used;
}

function documentedCodes(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
  const codes: string[] = [];
  for (const line of doc.split('\n')) {
    const m = DOC_ENTRY.exec(line);
    if (m?.[1]) codes.push(m[1]);
  }
  return codes;
}

type AnyErrorClass = (new (...args: unknown[]) => SaltError) & { readonly code?: unknown };

/** The exports of kernel/errors.ts that are classes made by createError (SaltError subclasses with a static code). */
function catalogClasses(): [string, AnyErrorClass][] {
  return Object.entries(catalog as Record<string, unknown>).filter(
    (entry): entry is [string, AnyErrorClass] =>
      typeof entry[1] === 'function' &&
      entry[1] !== SaltError &&
      (entry[1] as { prototype?: unknown }).prototype instanceof SaltError &&
      typeof (entry[1] as { code?: unknown }).code === 'string',
  );
}

describe('docs/errors.md', () => {
  const used = usedCodes();
  const documented = documentedCodes();

  it('finds the codes of the catalog and of code outside it', () => {
    // Guards the scanner itself: a catalog code, and codes that live only as strings elsewhere.
    expect(used.get('SALT_ERR_HOOK_FAILED')).toContain(join('kernel', 'errors.ts'));
    expect(used.has('SALT_ERR_CLIENT_PUBLISH')).toBe(true);
    expect(used.has('SALT_ERR_AUTH_SESSION')).toBe(true);
    expect(used.has('SALT_ERR_PROCESS_START')).toBe(true);
    // The JSDoc example in kernel/errors.ts is a comment, not a code.
    expect(used.has('SALT_ERR_X')).toBe(false);
    expect(documented.length).toBeGreaterThan(40);
  });

  it('has an entry for every SALT_ERR_ code used in the sources', () => {
    const have = new Set(documented);
    const missing = [...used.keys()]
      .filter((code) => !have.has(code))
      .sort()
      .map((code) => `${code} (used in ${used.get(code)?.join(', ')})`);
    expect(missing, `codes without an entry in docs/errors.md:\n${missing.join('\n')}`).toEqual([]);
  });

  it('has no stale entries: every documented code is used somewhere', () => {
    const stale = documented.filter((code) => !used.has(code)).sort();
    expect(stale, `codes in docs/errors.md that no source file uses:\n${stale.join('\n')}`).toEqual([]);
  });

  it('documents each code once', () => {
    const seen = new Set<string>();
    const twice = documented.filter((code) => seen.has(code) || !seen.add(code));
    expect(twice).toEqual([]);
  });
});

describe('kernel/errors.ts catalog', () => {
  const classes = catalogClasses();

  it('exports only createError classes under SALT_ERR_ names', () => {
    const names = Object.keys(catalog).filter((n) => n.startsWith('SALT_ERR_'));
    // Codes are never removed: the catalog only grows.
    expect(names.length).toBeGreaterThanOrEqual(40);
    expect(classes.map(([n]) => n).sort()).toEqual(names.sort());
  });

  it.each(catalogClasses())('%s has .code equal to its export name', (name, Cls) => {
    expect(Cls.code).toBe(name);
    expect(Cls.name).toBe(name);
  });

  it.each(catalogClasses())('new %s(...) is a SaltError with that code', (name, Cls) => {
    // Message functions take at most a few strings and numbers; surplus arguments land in the
    // options slot, where a string is harmless.
    const e = new Cls('a', 'b', 'c', 'd');
    expect(e).toBeInstanceOf(SaltError);
    expect(e).toBeInstanceOf(Error);
    expect(e).toBeInstanceOf(Cls);
    expect(e.code).toBe(name);
    expect(e.name).toBe(name);
    expect(typeof e.message).toBe('string');
    expect(e.message.length).toBeGreaterThan(0);
    expect(e.toJSON().code).toBe(name);
  });

  it('never gives two classes the same code', () => {
    const codes = classes.map(([, Cls]) => Cls.code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
