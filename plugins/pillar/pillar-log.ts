/**
 * The logger the pillar compiler writes to, and how an error is put into words for `_errors`
 * and the log: a message only, never a stack or the data being rendered.
 */
export interface PillarLog {
  error(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  debug(obj: Record<string, unknown>, msg: string): void;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
