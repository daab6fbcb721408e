/**
 * The option reference (name, type, default, meaning) read from the schemas themselves, so
 * docs/config.md and any `--help`-style listing cannot drift from what is validated.
 */
import type { z } from 'zod';
import type { ConfigKind } from './constants.js';
import { optionMeta } from './schema-common.js';
import { masterSchema } from './schema-master.js';
import { minionSchema } from './schema-minion.js';

/** One documented option. */
export interface OptionRow {
  name: string;
  type: string;
  default: string;
  meaning: string;
}

function formatDefault(value: unknown): string {
  return `\`${JSON.stringify(value)}\``;
}

/** Every option of `kind`, in schema order. */
export function optionRows(kind: ConfigKind): OptionRow[] {
  const shape: Record<string, z.ZodType> = (kind === 'master' ? masterSchema : minionSchema).shape;
  return Object.entries(shape).map(([name, schema]) => {
    const meta = optionMeta.get(schema);
    return {
      name,
      type: meta?.type ?? 'unknown',
      default: meta?.default ?? formatDefault(schema.parse(undefined)),
      meaning: meta?.description ?? '',
    };
  });
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The options of `kind` as a Markdown table. */
export function optionsMarkdownTable(kind: ConfigKind): string {
  const lines = ['| option | type | default | meaning |', '|---|---|---|---|'];
  for (const row of optionRows(kind)) {
    lines.push(`| \`${row.name}\` | ${cell(row.type)} | ${cell(row.default)} | ${cell(row.meaning)} |`);
  }
  return lines.join('\n');
}
