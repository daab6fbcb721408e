/**
 * The entry of tsalt's self-contained executable (a Node single executable application,
 * built by tools/sea/build-sea.ts). The executable carries tsalt's built code and production
 * dependencies as one gzipped tar asset; on first start it unpacks them into a folder named by
 * the asset's hash and runs the command from there, so later starts only check the folder.
 *
 * One file, builtins only: a single executable's main script cannot load other files of its
 * own. It runs ESM through a CommonJS shim written next to the unpacked code.
 *
 * Which command runs: `tsalt-minion [args]` is `salt-minion`; a copy or link named
 * `salt-call` (or any of Salt's commands) is that command; `tsalt-minion salt-call [args]`
 * names it explicitly. A child the code forks (`fork(script)`: this executable with node
 * options, then the script) runs that script.
 */
import crypto = require('node:crypto');
import fs = require('node:fs');
import moduleApi = require('node:module');
import os = require('node:os');
import path = require('node:path');
import url = require('node:url');
import v8 = require('node:v8');
import zlib = require('node:zlib');

const COMMANDS = ['salt-minion', 'salt-call', 'salt-master', 'salt', 'salt-key', 'salt-run', 'salt-api'];
const DEFAULT_COMMAND = 'salt-minion';

interface SeaApi {
  isSea(): boolean;
  getAsset(key: string, encoding?: string): ArrayBuffer | string;
}

function sea(): SeaApi {
  return require('node:sea') as SeaApi;
}

/** Where the code is unpacked: `TSALT_SEA_DIR`, else a cache folder of the user running it. */
function baseDir(): string {
  if (process.env.TSALT_SEA_DIR) return process.env.TSALT_SEA_DIR;
  if (process.getuid?.() === 0) return '/var/cache/tsalt/sea';
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'tsalt', 'sea');
}

/** A NUL-terminated field of a tar header. */
function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
}

/** Unpacks a GNU or ustar archive (files, folders, symbolic links, GNU long names) into `dir`. */
function untar(archive: Buffer, dir: string): void {
  let offset = 0;
  let longName: string | undefined;
  let longLink: string | undefined;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    offset += 512;
    if (header.every((b) => b === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const data = archive.subarray(offset, offset + size);
    offset += Math.ceil(size / 512) * 512;
    if (type === 'L' || type === 'K') {
      const value = data.toString('utf8').replace(/\0+$/, '');
      if (type === 'L') longName = value;
      else longLink = value;
      continue;
    }
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    const link = longLink ?? field(header, 157, 100);
    longName = undefined;
    longLink = undefined;
    const target = path.resolve(dir, name);
    if (target !== dir && !target.startsWith(`${dir}${path.sep}`))
      throw new Error(`bad path in archive: ${name}`);
    const mode = Number.parseInt(field(header, 100, 8).trim() || '644', 8) & 0o777;
    if (type === '5') fs.mkdirSync(target, { recursive: true, mode: mode | 0o700 });
    else if (type === '2') {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.symlinkSync(link, target);
    } else if (type === '0' || type === '\0') {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, data, { mode });
    }
  }
}

/** The unpacked code's folder, unpacking it first when this build has not run here before. */
function unpacked(): string {
  const api = sea();
  const hash = String(api.getAsset('app.sha256', 'utf8')).trim();
  const root = baseDir();
  const dir = path.join(root, hash);
  if (fs.existsSync(path.join(dir, '.complete'))) return dir;
  fs.mkdirSync(root, { recursive: true, mode: 0o755 });
  const staging = fs.mkdtempSync(path.join(root, `.${hash}-`));
  // readable by every user: a daemon that becomes its `user:` forks its children from here
  fs.chmodSync(staging, 0o755);
  const archive = zlib.gunzipSync(Buffer.from(api.getAsset('app.tar.gz') as ArrayBuffer));
  if (crypto.createHash('sha256').update(archive).digest('hex') !== hash) {
    throw new Error('the executable is damaged: its code does not match its hash');
  }
  untar(archive, staging);
  fs.writeFileSync(path.join(staging, '.complete'), '');
  try {
    fs.renameSync(staging, dir);
  } catch (err) {
    // another start unpacked it meanwhile
    fs.rmSync(staging, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, '.complete'))) throw err;
  }
  return dir;
}

/** Runs an ES module from disk (a single executable's main script cannot `import()` itself). */
function runModule(dir: string, file: string): void {
  const shim = path.join(dir, '.import.cjs');
  if (!fs.existsSync(shim)) fs.writeFileSync(shim, 'module.exports = (u) => import(u);\n');
  const load = moduleApi.createRequire(shim)(shim) as (u: string) => Promise<unknown>;
  load(url.pathToFileURL(file).href).catch((err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}

function main(): void {
  const dir = unpacked();
  // children (a daemon's, also after it became its `user:`) run from the same unpacked code
  process.env.TSALT_SEA_DIR = path.dirname(dir);
  const args = process.argv.slice(2);
  // a forked child: node options (V8's are applied; the others have no meaning here), then a script
  let i = 0;
  while (i < args.length && args[i]?.startsWith('--')) i++;
  const script = args[i];
  // a script of this build, or of an earlier one still unpacked: a process that started before
  // a package upgrade replaced this executable forks its job processes from its own code
  const ours = (d: string): boolean => !!script && script.startsWith(`${d}${path.sep}`);
  if (
    script &&
    path.isAbsolute(script) &&
    (ours(dir) || (ours(path.dirname(dir)) && fs.existsSync(script)))
  ) {
    for (const opt of args.slice(0, i)) {
      if (/^--(max|min)-[a-z-]+=\d+$/.test(opt)) v8.setFlagsFromString(opt);
    }
    process.argv = [process.argv[0] ?? process.execPath, script, ...args.slice(i + 1)];
    runModule(dir, script);
    return;
  }
  const invoked = path.basename(process.argv[1] ?? '');
  let command = COMMANDS.includes(invoked) ? invoked : DEFAULT_COMMAND;
  let rest = args;
  if (args[0] && COMMANDS.includes(args[0])) {
    command = args[0];
    rest = args.slice(1);
  }
  const entry = path.join(dir, 'dist', 'cli', `${command}.js`);
  process.argv = [process.argv[0] ?? process.execPath, path.join(dir, 'bin', command), ...rest];
  runModule(dir, entry);
}

main();
