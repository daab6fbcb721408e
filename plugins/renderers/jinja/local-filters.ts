/**
 * Salt's filters that look at the machine the template renders on (salt/utils/files.py,
 * hashutils.py, path.py): `file_hashsum`, `is_text_file`, `is_bin_file`, `list_files`, `which`,
 * and the text parser `mysql_to_dict`. Templates render on the minion, so these read its files.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, open, readdir, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { arg, type Fn } from './filters.js';
import { iterate, str, TemplateError } from './values.js';

async function head(path: string, size: number): Promise<Buffer | undefined> {
  try {
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.alloc(size);
      const { bytesRead } = await fh.read(buf, 0, size, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    return undefined;
  }
}

/** The share of bytes outside printable ASCII and `\n\r\t\f\b`. */
function nonText(block: Buffer, formFeed: boolean): number {
  let n = 0;
  for (const c of block)
    if (!((c >= 32 && c < 127) || c === 10 || c === 13 || c === 9 || c === 8 || (formFeed && c === 12))) n++;
  return n / block.length;
}

async function walk(dir: string, out: Set<string>): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    out.add(p);
    if (e.isDirectory()) await walk(p, out);
  }
}

export const LOCAL_FILTERS: Record<string, Fn> = {
  async file_hashsum(v, args, kw) {
    const form = str(arg(args, kw, 0, 'form', 'sha256'));
    let hash: ReturnType<typeof createHash>;
    try {
      hash = createHash(form);
    } catch {
      throw new TemplateError(`Invalid hash type: ${form}`);
    }
    const fh = await open(str(v), 'r').catch((err: Error) => {
      throw new TemplateError(`file_hashsum: cannot read ${str(v)}: ${err.message}`);
    });
    try {
      for await (const chunk of fh.createReadStream()) hash.update(chunk as Buffer);
    } finally {
      await fh.close();
    }
    return hash.digest('hex');
  },
  async is_text_file(v) {
    const block = await head(str(v), 512);
    if (block === undefined || block.includes(0)) return false;
    if (block.length === 0) return true;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(block);
      return true;
    } catch {
      return nonText(block, true) <= 0.3;
    }
  },
  async is_bin_file(v) {
    const path = str(v);
    const st = await stat(path).catch(() => undefined);
    if (!st?.isFile()) return false;
    const block = await head(path, 2048);
    if (!block || block.length === 0) return false;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(block);
    } catch {
      return true;
    }
    return block.includes(0) || nonText(block, false) > 0.3;
  },
  async list_files(v) {
    const dir = str(v);
    const out = new Set<string>([dir]);
    await walk(dir, out);
    return [...out];
  },
  async which(v) {
    const exe = v === null || v === undefined ? '' : str(v);
    if (!exe) return null;
    const ok = (p: string) =>
      stat(p).then(
        (st) =>
          st.isFile() &&
          access(p, constants.X_OK).then(
            () => true,
            () => false,
          ),
        () => false,
      );
    if (isAbsolute(exe)) return (await ok(exe)) ? exe : null;
    for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
      const p = join(dir, exe);
      if (await ok(p)) return p;
    }
    return null;
  },
  mysql_to_dict(v, args, kw) {
    const key = str(arg(args, kw, 0, 'key', ''));
    const ret: Record<string, unknown> = {};
    let headers = [''];
    const num = (s: string) =>
      /^[-+]?\d+$/.test(s) ? Number(s) : s !== '' && !Number.isNaN(Number(s)) ? Number(s) : s;
    for (const line of iterate(v).map((l) => str(l))) {
      if (!line || line.startsWith('+')) continue;
      const comps = line.split('|').map((c) => c.trim());
      if (headers.length > 1) {
        const row: Record<string, unknown> = {};
        for (let f = 1; f < headers.length - 1; f++) row[headers[f] as string] = num(comps[f] ?? '');
        ret[str(row[key])] = row;
      } else headers = comps;
    }
    return ret;
  },
};
