// Runs a CLI's single-file build (dist/cli/bundle/<name>.cjs, tools/build-cli-bundle.ts) with a
// V8 code cache in the user's cache folder, so that a run neither starts Node's ES module loader
// nor compiles tsalt's code from source. Falls back to the ES module CLI (`esm`) when the bundle
// is missing or older than the build of dist/cli/<name>.js (a `tsc` without the bundle step),
// when TSALT_CLI_BUNDLE=0, and when the bundle hands the command over (it needs a plugin or zod).
// CommonJS: it runs before any ES module loads.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');
const os = require('node:os');

// kernel/cache/user-cache-dir.ts holds the same rule; bin/run-bundle.test.ts checks that they agree.
function userCacheDir() {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'tsalt');
}

/** 32 bits of FNV-1a over `text`'s UTF-16 units: one cache file per installed copy of tsalt. */
function fnv(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The code cache file of bundle `file`, and the key its first line must carry to match `st`, its stat. */
function cacheOf(name, file, st) {
  const key = [file, st.size, st.mtimeMs, st.ino, process.version, process.arch].join(' ');
  return {
    file: path.join(userCacheDir(), `${name}-cli-${fnv(file)}.v8cache`),
    key: Buffer.from(`${key}\n`),
  };
}

function readCache(cache) {
  try {
    const data = fs.readFileSync(cache.file);
    if (data.subarray(0, cache.key.length).equals(cache.key)) return data.subarray(cache.key.length);
  } catch {
    // no cache yet
  }
  return undefined;
}

/** Writes the code V8 compiled during this run (at exit, so the functions the run called are in it). */
function writeCache(cache, script) {
  try {
    fs.mkdirSync(path.dirname(cache.file), { recursive: true, mode: 0o700 });
    const tmp = `${cache.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.concat([cache.key, script.createCachedData()]), { mode: 0o600 });
    fs.renameSync(tmp, cache.file);
  } catch {
    // a cache that cannot be written only costs time
  }
}

/** Loads the bundle as a CommonJS module, from the code cache when it has one. */
function load(name, file, st) {
  const cache = cacheOf(name, file, st);
  const cachedData = readCache(cache);
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData });
  if (!cachedData || script.cachedDataRejected) process.once('exit', () => writeCache(cache, script));
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  script
    .runInThisContext()
    .call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  return mod.exports;
}

exports.userCacheDir = userCacheDir;

/** Runs CLI `name` from its bundle, or `esm()` (the ES module CLI) where the bundle cannot. */
exports.runBundle = (name, esm) => {
  const dist = path.join(__dirname, '..', 'dist', 'cli');
  const file = path.join(dist, 'bundle', `${name}.cjs`);
  let st;
  try {
    st = fs.statSync(file);
    if (
      process.env.TSALT_CLI_BUNDLE === '0' ||
      fs.statSync(path.join(dist, `${name}.js`)).mtimeMs > st.mtimeMs
    )
      st = undefined;
  } catch {
    st = undefined;
  }
  if (!st) return esm();
  return load(name, file, st)
    .main()
    .then((ran) => (ran ? undefined : esm()));
};
