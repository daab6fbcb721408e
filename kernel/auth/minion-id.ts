/**
 * Minion id validation (Salt's `valid_id`): an id becomes a file name under `pki_dir`, so
 * anything that could leave that folder is refused. Stricter than Salt: control characters
 * (C0, DEL, C1: CR/LF among them) are refused too, since an id also ends up in log lines,
 * event tags and HTTP headers, where a line break splits one record into two.
 */
export function isValidMinionId(id: unknown): id is string {
  if (typeof id !== 'string' || id.length === 0 || id.length > 255) return false;
  if (id === '.' || id === '..') return false;
  return !/[/\\\p{Cc}]/u.test(id);
}
