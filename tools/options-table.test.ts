import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { masterSchema } from '../kernel/config/schema-master.js';
import { minionSchema } from '../kernel/config/schema-minion.js';
import { BUILTIN_OPTION_SETS } from '../plugins/builtin-options.js';
import { optionRows, optionsMarkdownTable } from './options-table.js';

const docs = readFileSync(fileURLToPath(new URL('../docs/config.md', import.meta.url)), 'utf8');

/** The cells of the first Markdown table after `heading`, whatever its column padding. */
function tableRows(markdown: string, heading: string): string[][] {
  const lines = markdown.slice(markdown.indexOf(heading) + heading.length).split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

describe('option reference', () => {
  it('documents every option with a type, a default and a meaning', () => {
    for (const kind of ['master', 'minion'] as const) {
      const rows = optionRows(kind);
      const schema = kind === 'master' ? masterSchema : minionSchema;
      expect(rows.map((r) => r.name)).toEqual(Object.keys(schema.shape));
      for (const row of rows) {
        expect(row.type, row.name).not.toBe('unknown');
        expect(row.meaning, row.name).not.toBe('');
        expect(row.default, row.name).not.toBe('');
      }
    }
  });

  it('documents every plugin option with a type, a default and a meaning', () => {
    for (const set of BUILTIN_OPTION_SETS) {
      for (const row of optionRows(set.daemons[0]!, [set]).filter((r) => Object.hasOwn(set.shape, r.name))) {
        expect(row.type, row.name).not.toBe('unknown');
        expect(row.meaning, row.name).not.toBe('');
      }
    }
  });

  it('is what docs/config.md shows (regenerate with tools/gen-config-docs.ts)', () => {
    const sets = BUILTIN_OPTION_SETS;
    expect(tableRows(docs, '## Master options')).toEqual(tableRows(optionsMarkdownTable('master', sets), ''));
    expect(tableRows(docs, '## Minion options')).toEqual(tableRows(optionsMarkdownTable('minion', sets), ''));
  });
});
