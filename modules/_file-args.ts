/**
 * Argument pieces the `file` module's functions share: Salt's path and owner arguments (a
 * string or a YAML number), `~` expansion, and the `CLI Example` block of their docs.
 */
import type { z as Zod } from 'zod';

/** A path or text argument; YAML may type it as a number. */
export const str = (z: typeof Zod) => z.union([z.string(), z.number()]).transform(String);

/** An optional text argument. */
export const optStr = (z: typeof Zod) => z.union([z.string(), z.number()]).transform(String).nullish();

/** A user or group: a name or an id, optional. */
export const owner = (z: typeof Zod) => z.union([z.string(), z.number()]).nullish();

/** A user or group Salt's signature requires (None allowed): a name or an id. */
export const ownerReq = (z: typeof Zod) => z.union([z.string(), z.number()]).nullable();

/** The `comment`/`uncomment` arguments: path, regex, char, backup. */
export const commentArgs = (z: typeof Zod) =>
  z.object({
    path: str(z),
    regex: z.string(),
    char: z.string().default('#'),
    backup: z.union([z.string(), z.literal(false)]).default('.bak'),
  });

/** `os.path.expanduser` for `~` and `~/...`. */
export function expand(path: string): string {
  if (path === '~' || path.startsWith('~/')) return (process.env.HOME ?? '/root') + path.slice(1);
  return path;
}

/** The `CLI Example` block Salt's docstrings end with. */
export function cli(example: string): string {
  return `\n\nCLI Example:\n\n.. code-block:: bash\n\n    ${example}`;
}
