/**
 * The option reference (name, type, default, meaning) read from the schemas themselves, so
 * docs/config.md and any `--help`-style listing cannot drift from what is validated.
 */
import type { z } from 'zod';
import type { ConfigKind } from '../kernel/config/constants.js';
import type { OptionSet } from '../kernel/config/option-set.js';
import { optionMeta } from '../kernel/config/schema-common.js';
import { masterSchema } from '../kernel/config/schema-master.js';
import { minionSchema } from '../kernel/config/schema-minion.js';

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

/** Every option of `kind`, in schema order, then those of the plugin option `sets` read by `kind`. */
export function optionRows(kind: ConfigKind, sets: readonly OptionSet[] = []): OptionRow[] {
  const shape: Record<string, z.ZodType> = { ...(kind === 'master' ? masterSchema : minionSchema).shape };
  for (const set of sets) if (set.daemons.includes(kind)) Object.assign(shape, set.shape);
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
export function optionsMarkdownTable(kind: ConfigKind, sets: readonly OptionSet[] = []): string {
  const lines = ['| option | type | default | meaning |', '|---|---|---|---|'];
  for (const row of optionRows(kind, sets)) {
    lines.push(`| \`${row.name}\` | ${cell(row.type)} | ${cell(row.default)} | ${cell(row.meaning)} |`);
  }
  return lines.join('\n');
}
