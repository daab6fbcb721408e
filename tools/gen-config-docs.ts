/**
 * Rewrites the option tables of docs/config.md from the config schemas, columns aligned:
 * `npx tsc -p tsconfig.build.json && node dist/tools/gen-config-docs.js`. A test
 * (tools/options-table.test.ts) fails when the file and the schemas disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUILTIN_OPTION_SETS } from '../plugins/builtin-options.js';
import { optionsMarkdownTable } from './options-table.js';

/** Pads every column of a markdown table to its widest cell (escaped pipes stay in their cell). */
export function alignTable(table: string): string {
  const rows = table
    .trimEnd()
    .split('\n')
    .map((line) =>
      line
        .replace(/^\|/, '')
        .replace(/\|$/, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  const widths = rows[0]!.map((_, i) =>
    Math.max(3, ...rows.map((r) => (/^-+$/.test(r[i] ?? '') ? 3 : (r[i] ?? '').length))),
  );
  return rows
    .map(
      (r) =>
        `| ${r.map((cell, i) => (/^-+$/.test(cell) ? '-'.repeat(widths[i]!) : cell.padEnd(widths[i]!))).join(' | ')} |`,
    )
    .join('\n');
}

const path = fileURLToPath(new URL('../../docs/config.md', import.meta.url));
let text = readFileSync(path, 'utf8');
for (const [heading, kind] of [
  ['## Master options', 'master'],
  ['## Minion options', 'minion'],
] as const) {
  const start = text.indexOf(heading);
  if (start < 0) throw new Error(`${heading} not found in ${path}`);
  const tableStart = text.indexOf('\n|', start) + 1;
  let end = tableStart;
  while (end < text.length && text[end] === '|') {
    const nl = text.indexOf('\n', end);
    end = nl < 0 ? text.length : nl + 1;
  }
  text = `${text.slice(0, tableStart) + alignTable(optionsMarkdownTable(kind, BUILTIN_OPTION_SETS))}\n${text.slice(end)}`;
}
writeFileSync(path, text);
console.log(`rewrote the option tables of ${path}`);
