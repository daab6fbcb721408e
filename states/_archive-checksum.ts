/**
 * The checksum Salt's `archive.extracted` keeps for `source_hash_update`: one
 * `<hash_type>:<hsum>` line per hash type in `<cachedir>/archive_hash/<path relative to
 * cachedir>.hash` (or `local/<absolute path>.hash` for an archive outside the cachedir).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface Checksum {
  hash_type: string;
  hsum: string;
}

export function checksumPath(cachedir: string, file: string): string {
  let rel = `${path.relative(cachedir, file)}.hash`;
  if (/^\.\.[/\\]/.test(rel)) rel = path.join('local', `${file.replace(/^[/\\]+/, '')}.hash`);
  return path.join(cachedir, 'archive_hash', rel);
}

export async function fileChecksum(file: string, hashType: string): Promise<Checksum> {
  return {
    hsum: createHash(hashType)
      .update(await readFile(file))
      .digest('hex'),
    hash_type: hashType,
  };
}

export async function readChecksum(cachedir: string, file: string, form: string): Promise<Checksum | null> {
  try {
    for (const line of (await readFile(checksumPath(cachedir, file), 'utf8')).split('\n')) {
      const at = line.indexOf(':');
      if (at > 0 && line.slice(0, at) === form) return { hash_type: form, hsum: line.slice(at + 1) };
    }
  } catch {
    // no checksum kept yet
  }
  return null;
}

export async function updateChecksum(cachedir: string, file: string, hashType: string): Promise<void> {
  const target = checksumPath(cachedir, file);
  await mkdir(path.dirname(target), { recursive: true });
  const sum = await fileChecksum(file, hashType);
  let lines: string[][] = [];
  try {
    lines = (await readFile(target, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const at = l.indexOf(':');
        return at < 0 ? [l] : [l.slice(0, at), l.slice(at + 1)];
      });
  } catch {
    lines = [];
  }
  for (const l of lines) if (l[0] === hashType) l[1] = sum.hsum;
  if (!lines.some((l) => l[0] === hashType)) lines.push([hashType, sum.hsum]);
  await writeFile(target, lines.map((l) => `${l.join(':')}\n`).join(''));
}
