/**
 * Formats "where" a render failed, the answer to Salt's bare `SaltRenderError` tracebacks
 * (saltstack/salt#21298, #39908): the file, line and column, the offending line with a caret
 * under the column, and the chain of includes/imports that led to the file.
 */
import type { SaltErrorClass } from '../../kernel/errors.js';

/** A position in a rendered file. */
export interface RenderLocation {
  readonly path: string;
  /** 1-based; 0 when unknown. */
  readonly line: number;
  /** 1-based; 0 when unknown. */
  readonly column: number;
  /** The file's text, to quote the offending line. */
  readonly source?: string;
  /** Outermost first: `nginx/init.sls, line 3` entries. */
  readonly chain?: readonly string[];
}

/** What a render error carries in `details`. */
export interface RenderErrorDetails {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly chain: readonly string[];
  readonly reason: string;
}

/** `path, line L, column C: message`, the quoted line, then `included from ...` lines. */
export function describeWhere(at: RenderLocation, message: string): string {
  let head = at.path;
  if (at.line > 0) head += `, line ${at.line}`;
  if (at.line > 0 && at.column > 0) head += `, column ${at.column}`;
  const lines = [`${head}: ${message}`];
  const text = at.line > 0 ? at.source?.split('\n')[at.line - 1] : undefined;
  if (text !== undefined) {
    const gutter = String(at.line);
    const shown = text.replace(/\t/g, ' ').replace(/\r$/, '');
    lines.push(`  ${gutter} | ${shown.length > 200 ? `${shown.slice(0, 200)}...` : shown}`);
    if (at.column > 0 && at.column <= 201)
      lines.push(`  ${' '.repeat(gutter.length)} | ${' '.repeat(at.column - 1)}^`);
  }
  for (const outer of [...(at.chain ?? [])].reverse()) lines.push(`  included from ${outer}`);
  return lines.join('\n');
}

/** A render error of class `Cls` at `at`, with structured details. */
export function renderError(
  Cls: SaltErrorClass<[string]>,
  at: RenderLocation,
  message: string,
  cause?: unknown,
): InstanceType<SaltErrorClass<[string]>> {
  const details: RenderErrorDetails = {
    file: at.path,
    line: at.line,
    column: at.column,
    chain: at.chain ?? [],
    reason: message,
  };
  return new Cls(describeWhere(at, message), cause === undefined ? { details } : { details, cause });
}

/** 1-based line and column of `offset` in `source`. */
export function lineColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, source.length);
  for (let i = source.indexOf('\n'); i !== -1 && i < end; i = source.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: end - start + 1 };
}
