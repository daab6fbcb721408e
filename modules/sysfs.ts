/**
 * Salt's `sysfs` execution module (`salt/modules/sysfs.py`): read, write and list the kernel's
 * SysFS attributes under /sys. Values read are stripped and turned into numbers where Python's
 * int()/float() would; a directory reads as the nested map of its readable attributes.
 * Unlike Salt's, a key that resolves outside /sys (`/etc/passwd`, `../etc/passwd`) is unknown.
 */
import {
  constants as C,
  closeSync,
  existsSync,
  fstatSync,
  opendirSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, relative } from 'node:path';
import { defineFunction, defineModule, type UnitLogger } from '../kernel/index.js';
import { pyIsSpace } from '../kernel/python/index.js';
import { pyStr } from '../kernel/util.js';

type Value = number | bigint | string;
interface SysfsTree {
  [key: string]: Value | SysfsTree;
}

/** Salt's `target`: the real path of a key under /sys, or false when it does not exist. */
export function target(key: string): string | false {
  const path = key.startsWith('/sys') ? key : join('/sys', key);
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch {
    return false;
  }
  if (real !== '/sys' && !real.startsWith('/sys/')) return false;
  return existsSync(real) ? real : false;
}

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** Python's `os.walk(root, followlinks=False)` file lists, in directory order, top-down. */
function walkFiles(root: string, visit: (dir: string, file: string) => void): void {
  let dir: ReturnType<typeof opendirSync>;
  try {
    dir = opendirSync(root);
  } catch {
    return;
  }
  const subdirs: string[] = [];
  try {
    for (let e = dir.readSync(); e !== null; e = dir.readSync()) {
      const full = join(root, e.name);
      if (isDir(full)) {
        if (!e.isSymbolicLink()) subdirs.push(full);
      } else visit(root, e.name);
    }
  } finally {
    dir.closeSync();
  }
  for (const sub of subdirs) walkFiles(sub, visit);
}

export interface Interfaces {
  r: string[];
  w: string[];
  rw: string[];
}

/** Salt's `interfaces`: the attributes under a directory by their owner's read/write bits. */
export function interfaces(root: string, log?: UnitLogger): Interfaces | false {
  const dir = target(root);
  if (dir === false || !isDir(dir)) {
    log?.error(`SysFS ${dir === false ? 'False' : dir} not a dir`);
    return false;
  }
  const out: Interfaces = { r: [], w: [], rw: [] };
  walkFiles(dir, (path, file) => {
    const full = join(path, file);
    let mode: number;
    try {
      const st = statSync(full);
      if (!st.isFile()) return;
      mode = st.mode;
    } catch {
      return;
    }
    const r = (mode & C.S_IRUSR) !== 0;
    const w = (mode & C.S_IWUSR) !== 0;
    const rel = relative(dir, full);
    if (w) (r ? out.rw : out.w).push(rel);
    else if (r) out.r.push(rel);
    else log?.warn(`Unable to find any interfaces in ${full}`);
  });
  return out;
}

/** Python's `int(s)` then `float(s)` on a stripped value, else the text itself. */
function pyNumber(s: string): Value {
  const digits = s.replace(/(?<=\d)_(?=\d)/g, '');
  if (/^[+-]?\d+$/.test(digits)) {
    const n = BigInt(digits);
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  }
  if (/^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)$/.test(digits)) return Number(digits);
  return s;
}

/** Python's str.strip(): whitespace and the separator controls. */
function pyStrip(s: string): string {
  const chars = [...s];
  let a = 0;
  let b = chars.length;
  while (a < b && pyIsSpace(chars[a] ?? '')) a++;
  while (b > a && pyIsSpace(chars[b - 1] ?? '')) b--;
  return chars.slice(a, b).join('');
}

function readValue(path: string): Value | false {
  let fd: number;
  try {
    fd = openSync(path, C.O_RDONLY | C.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    if (fstatSync(fd).isDirectory()) return false;
    const chunks: Buffer[] = [];
    const buf = Buffer.alloc(65536);
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf))
      chunks.push(Buffer.from(buf.subarray(0, n)));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
    const val = pyStrip(text);
    return val === '' ? false : pyNumber(val);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** Salt's `read`: one attribute's value, a directory's tree, or a list of keys under `root`. */
export function read(
  key: string | readonly string[],
  root = '',
  log?: UnitLogger,
): Value | SysfsTree | false {
  if (typeof key !== 'string') {
    const res: SysfsTree = {};
    for (const k of key) {
      const v = read(join(root, k), '', log);
      if (v !== false) res[k] = v;
    }
    return res;
  }
  const path = target(root === '' ? key : join(root, key));
  if (path === false) return false;
  if (!isDir(path)) return readValue(path);
  const keys = interfaces(path, log);
  const result: SysfsTree = {};
  if (keys === false) return result;
  for (const sub of [...keys.r, ...keys.rw]) {
    const v = read(join(path, sub), '', log);
    if (v === false) continue;
    const parts = sub.split('/');
    const leaf = parts.pop() as string;
    let node = result;
    for (const p of parts) {
      const next = node[p];
      if (typeof next === 'object') node = next;
      else {
        const made: SysfsTree = {};
        node[p] = made;
        node = made;
      }
    }
    node[leaf] = v;
  }
  return result;
}

/** Salt's `write`: the value and a newline into the attribute; false on any failure. */
export function write(key: string, value: unknown): boolean {
  const path = target(key);
  if (path === false) return false;
  try {
    writeFileSync(path, `${pyStr(value)}\n`);
    return true;
  } catch {
    return false;
  }
}

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' sysfs.${example}`;

export default defineModule({
  name: 'sysfs',
  doc: "Module for interfacing with SysFS: read, write and list the kernel's attributes under /sys.",
  virtual: (ctx) => ctx.grains.kernel === 'Linux' || { ok: false, reason: 'sysfs only works on Linux' },
  functions: {
    attr: defineFunction({
      args: (z) => z.object({ key: z.string(), value: z.unknown().default(null) }),
      doc: `Access/write a SysFS attribute. If the attribute is a symlink, its destination is returned${cli('attr block/sda/queue/logical_block_size')}`,
      run: (ctx, a) => {
        const path = target(a.key);
        if (path === false) return false;
        if (isDir(path)) return path;
        return a.value !== null && a.value !== undefined ? write(path, a.value) : read(path, '', ctx.log);
      },
    }),
    write: defineFunction({
      args: (z) => z.object({ key: z.string(), value: z.unknown() }),
      doc: `Write a SysFS attribute/action${cli('write devices/system/cpu/cpu0/cpufreq/scaling_governor performance')}`,
      run: (_ctx, a) => write(a.key, a.value),
    }),
    read: defineFunction({
      args: (z) =>
        z.object({ key: z.union([z.string(), z.array(z.string())]), root: z.string().default('') }),
      doc: `Read from SysFS: the value of an attribute, the tree of attributes under a directory, or (key a list) each key under root${cli('read class/net/em1/statistics')}`,
      run: (ctx, a) => read(a.key, a.root, ctx.log),
    }),
    target: defineFunction({
      args: (z) => z.object({ key: z.string(), full: z.unknown().default(true) }),
      doc: `Return the basename of a SysFS key path (full: the full path instead)${cli('target class/ttyS0')}`,
      run: (_ctx, a) => {
        const path = target(a.key);
        if (path === false) return false;
        return a.full ? path : basename(path);
      },
    }),
    interfaces: defineFunction({
      args: (z) => z.object({ root: z.string() }),
      doc: `Generate a dictionary with all available interfaces relative to root ('r' read-only, 'w' write-only, 'rw' both). Symlinks are not followed.${cli('interfaces class/net/lo')}`,
      run: (ctx, a) => interfaces(a.root, ctx.log),
    }),
  },
});
