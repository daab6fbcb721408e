/**
 * Minion id validation (Salt's `valid_id`): an id becomes a file name under `pki_dir`, so
 * anything that could leave that folder is refused.
 */
export function isValidMinionId(id: unknown): id is string {
  if (typeof id !== 'string' || id.length === 0 || id.length > 255) return false;
  if (id === '.' || id === '..') return false;
  return !/[/\\\0]/.test(id);
}
