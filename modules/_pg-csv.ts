/**
 * The CSV that `COPY (...) TO STDOUT WITH CSV HEADER` writes, read as Python's `csv.reader`
 * reads it (comma, double quotes, `""` inside quotes for one quote, newlines inside quotes
 * kept): what Salt's `postgres.psql_query` parses.
 */

/** The rows of a CSV text; a blank line is an empty row, as in Python. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let any = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
      continue;
    }
    if (c === '"') {
      quoted = true;
      any = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
      any = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (any || field !== '') row.push(field);
      rows.push(row);
      row = [];
      field = '';
      any = false;
    } else {
      field += c;
      any = true;
    }
  }
  if (any || field !== '') {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Rows after the header as records keyed by the header's names; empty rows are skipped. */
export function csvRecords(text: string): Record<string, string>[] {
  let header: string[] | undefined;
  const out: Record<string, string>[] = [];
  for (const row of parseCsv(text)) {
    if (row.length === 0) continue;
    if (!header) {
      header = row;
      continue;
    }
    const rec: Record<string, string> = {};
    header.forEach((name, i) => {
      if (i < row.length) rec[name] = row[i] as string;
    });
    out.push(rec);
  }
  return out;
}
