import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { optionRows, optionsMarkdownTable } from './options-table.js';
import { masterSchema } from './schema-master.js';
import { minionSchema } from './schema-minion.js';

const docs = readFileSync(fileURLToPath(new URL('../../docs/config.md', import.meta.url)), 'utf8');

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

  it('is what docs/config.md shows (regenerate the tables with optionsMarkdownTable)', () => {
    expect(docs).toContain(`## Master options\n\n${optionsMarkdownTable('master')}\n`);
    expect(docs).toContain(`## Minion options\n\n${optionsMarkdownTable('minion')}\n`);
  });
});
