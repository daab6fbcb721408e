/**
 * Which msgpack codec for Salt's wire rules: tsalt's hand-written codec (kernel/serial) against
 * `@msgpack/msgpack` and `msgpackr`, each in the configuration closest to Salt's rules.
 * Correctness against the golden vectors (msgpack.json) first, then speed on Salt-shaped payloads.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/msgpack-bench.js [--quick]
 *
 * The libraries are optional: a candidate whose package is not installed is skipped.
 */
import { isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tsalt from '../kernel/serial/index.js';

const { SaltConstant, SaltDatetime, SaltFloat, packIpc } = tsalt;

interface Codec {
  name: string;
  /** `undefined` when the library cannot produce or read Salt's network form at all. */
  packNetwork?: (v: unknown) => Uint8Array;
  unpackNetwork?: (b: Uint8Array) => unknown;
  packIpc: (v: unknown) => Uint8Array;
  unpackIpc: (b: Uint8Array) => unknown;
}

type Fn = (...args: never[]) => unknown;
type Loaded = Record<string, unknown>;

async function optionalImport(name: string): Promise<Loaded | undefined> {
  try {
    return (await import(name)) as Loaded;
  } catch {
    return undefined;
  }
}

// ── candidates ─────────────────────────────────────────────────────────────────────────

const handWritten: Codec = {
  name: 'tsalt hand-written',
  packNetwork: tsalt.packNetwork,
  unpackNetwork: tsalt.unpackNetwork,
  packIpc: tsalt.packIpc,
  unpackIpc: tsalt.unpackIpc,
};

/** Network pass of the libraries: bytes → text when valid UTF-8; bigints → numbers when safe. */
function saltPass(v: unknown, network: boolean): unknown {
  if (v instanceof Uint8Array) {
    const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    return network && isUtf8(b) ? b.toString('utf8') : Buffer.from(b);
  }
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = saltPass(v[i], network);
    return v;
  }
  if (v instanceof Map) {
    const m = new Map<unknown, unknown>();
    for (const [k, x] of v) m.set(saltPass(k, network), saltPass(x, network));
    return m;
  }
  if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) o[k] = saltPass(o[k], network);
  }
  return v;
}

function datetimeText(v: unknown): Buffer | undefined {
  const dt = v instanceof Date ? SaltDatetime.fromDate(v) : v instanceof SaltDatetime ? v : undefined;
  return dt ? Buffer.from(dt.toWire(), 'latin1') : undefined;
}

function decodeDatetime(data: Uint8Array): unknown {
  return SaltDatetime.parseWire(Buffer.from(data).toString('latin1'));
}

/** `@msgpack/msgpack`, with its private encoder methods patched for the network form. */
function msgpackCodec(lib: Loaded): Codec {
  const { Encoder, Decoder, ExtensionCodec } = lib as {
    Encoder: new (o: object) => Loaded;
    Decoder: new (o: object) => Loaded;
    ExtensionCodec: new () => { register(o: object): void };
  };
  const ext = new ExtensionCodec();
  ext.register({ type: 78, encode: () => null, decode: decodeDatetime });
  ext.register({
    type: 79,
    encode: () => null,
    decode: (data: Uint8Array) => {
      const [name, value] = ipcDecoder.decode(data) as [string, unknown];
      return new SaltConstant(name, value);
    },
  });
  const make = (network: boolean): { encode(v: unknown): Uint8Array } => {
    const e = new Encoder({ extensionCodec: ext, ignoreUndefined: true }) as Loaded & Record<string, Fn>;
    const call = (m: string, ...a: unknown[]): unknown => (e[m] as (...x: unknown[]) => unknown).apply(e, a);
    /** A type byte followed by a 16-bit or 32-bit length. */
    const tagged = (tag: number, len: number, wide: boolean): void => {
      call('writeU8', tag);
      call(wide ? 'writeU32' : 'writeU16', len);
    };
    const header = (len: number, fix: number, b16: number, b32: number): void => {
      if (len < 16) call('writeU8', fix | len);
      else if (len < 0x10000) tagged(b16, len, false);
      else tagged(b32, len, true);
    };
    const origObject = e.encodeObject as (o: unknown, d: number) => void;
    const origNumber = e.encodeNumber as (n: number) => void;
    e.encodeNumber = ((n: number) =>
      Object.is(n, -0) ? call('encodeNumberAsFloat', n) : origNumber.call(e, n)) as Fn;
    e.encodeObject = ((o: unknown, depth: number) => {
      if (typeof o === 'bigint') {
        if (o >= -0x80000000n && o <= 0xffffffffn) call('encodeNumber', Number(o));
        else if (o >= -(2n ** 63n) && o < 2n ** 64n) call('encodeBigInt64', o);
        else call('encodeString', o.toString());
      } else if (o instanceof SaltFloat) call('encodeNumberAsFloat', o.value);
      else if (o instanceof Date || o instanceof SaltDatetime) {
        call('encodeExtension', { type: 78, data: datetimeText(o) });
      } else if (o instanceof SaltConstant)
        call('encodeExtension', { type: 79, data: packIpc([o.name, o.value]) });
      else if (o instanceof Map) {
        header(o.size, 0x80, 0xde, 0xdf);
        for (const [k, v] of o) {
          call('doEncode', k, depth + 1);
          call('doEncode', v, depth + 1);
        }
      } else if (o instanceof Set) call('encodeArray', [...o], depth);
      else origObject.call(e, o, depth);
    }) as Fn;
    if (network) {
      e.writeStringHeader = ((len: number) => {
        if (len < 32) call('writeU8', 0xa0 | len);
        else if (len < 0x10000) tagged(0xda, len, false);
        else tagged(0xdb, len, true);
      }) as Fn;
      e.encodeBinary = ((b: ArrayBufferView) => {
        const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
        call('writeStringHeader', bytes.length);
        call('writeU8a', bytes);
      }) as Fn;
    }
    return e as unknown as { encode(v: unknown): Uint8Array };
  };
  const ipcDecoder = new Decoder({ extensionCodec: ext, useBigInt64: true }) as unknown as {
    decode(b: Uint8Array): unknown;
  };
  const netDecoder = new Decoder({ extensionCodec: ext, useBigInt64: true, rawStrings: true }) as unknown as {
    decode(b: Uint8Array): unknown;
  };
  const net = make(true);
  const ipc = make(false);
  return {
    name: '@msgpack/msgpack (patched)',
    packNetwork: (v) => net.encode(v),
    unpackNetwork: (b) => saltPass(netDecoder.decode(b), true),
    packIpc: (v) => ipc.encode(v),
    unpackIpc: (b) => saltPass(ipcDecoder.decode(b), false),
  };
}

/** `msgpackr`: no raw-str mode and no str-for-bytes option, so the IPC form only. */
function msgpackrCodec(lib: Loaded): Codec {
  const { Packr, Unpackr, addExtension } = lib as {
    Packr: new (o: object) => { pack(v: unknown): Uint8Array };
    Unpackr: new (o: object) => { unpack(b: Uint8Array): unknown };
    addExtension(e: object): void;
  };
  addExtension({ Class: SaltDatetime, type: 78, pack: datetimeText, unpack: decodeDatetime });
  addExtension({ Class: Date, type: 78, pack: datetimeText, unpack: decodeDatetime });
  addExtension({
    Class: SaltConstant,
    type: 79,
    pack: (c: InstanceType<typeof SaltConstant>) => packIpc([c.name, c.value]),
    unpack: (data: Uint8Array) => {
      const [name, value] = unpackr.unpack(data) as [string, unknown];
      return new SaltConstant(name, value);
    },
  });
  const opts = {
    useRecords: false,
    variableMapSize: true,
    encodeUndefinedAsNil: true,
    largeBigIntToString: true,
  };
  const packr = new Packr(opts);
  const unpackr = new Unpackr({ ...opts, mapsAsObjects: true, int64AsType: 'auto' });
  return {
    name: 'msgpackr',
    packIpc: (v) => packr.pack(v),
    unpackIpc: (b) => saltPass(unpackr.unpack(b), false),
  };
}

// ── golden vectors ─────────────────────────────────────────────────────────────────────

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

interface Vector {
  name: string;
  input: unknown;
  network: { b64: string; decoded: unknown };
  ipc: { b64: string; decoded: unknown };
}

/** Tagged JSON → JS; `exactFloats: false` turns `$float` into plain numbers (for comparing decodes). */
function fromTagged(v: unknown, exactFloats: boolean): unknown {
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (typeof x !== 'object' || x === null) return x;
    const [tag, val] = Object.entries(x)[0] ?? [];
    if (Object.keys(x).length === 1 && tag?.startsWith('$')) {
      if (tag === '$bytes') return Buffer.from(val as string, 'base64');
      if (tag === '$int') return BigInt(val as string);
      if (tag === '$float') return exactFloats ? new SaltFloat(val as number) : val;
      if (tag === '$map') return new Map((val as unknown[][]).map(([k, y]) => [walk(k), walk(y)]));
      if (tag === '$tuple') return (val as unknown[]).map(walk);
      if (tag === '$set') return new Set((val as unknown[]).map(walk));
      if (tag === '$date') return SaltDatetime.parseIso(val as string);
      if (tag === '$datetime') return SaltDatetime.parseIso(val as string);
      const c = val as { name: string; value: unknown };
      return new SaltConstant(c.name, walk(c.value));
    }
    const o: Record<string, unknown> = {};
    for (const [k, y] of Object.entries(x)) o[k] = walk(y);
    return o;
  };
  return walk(v);
}

const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** Decoded values are compared through tsalt's IPC packing, which keeps str/bytes, order and types. */
function sameValue(actual: unknown, expected: unknown): boolean {
  try {
    return hex(packIpc(actual)) === hex(packIpc(expected));
  } catch {
    return false;
  }
}

function checkVectors(codec: Codec, vectors: Vector[]): Record<string, string> {
  const tally = (ok: (v: Vector) => boolean, fails: string[], label: string): string => {
    let n = 0;
    for (const v of vectors) {
      let good = false;
      try {
        good = ok(v);
      } catch {
        good = false;
      }
      if (good) n++;
      else fails.push(`${label}:${v.name}`);
    }
    return `${n}/${vectors.length}`;
  };
  const fails: string[] = [];
  const net = (v: Vector) => Buffer.from(v.network.b64, 'base64');
  const ipc = (v: Vector) => Buffer.from(v.ipc.b64, 'base64');
  const result: Record<string, string> = {
    'network encode': codec.packNetwork
      ? tally(
          (v) => hex(codec.packNetwork?.(fromTagged(v.input, true)) ?? Buffer.alloc(0)) === hex(net(v)),
          fails,
          'ne',
        )
      : 'n/a',
    'network decode': codec.unpackNetwork
      ? tally(
          (v) => sameValue(codec.unpackNetwork?.(net(v)), fromTagged(v.network.decoded, false)),
          fails,
          'nd',
        )
      : 'n/a',
    'ipc encode': tally((v) => hex(codec.packIpc(fromTagged(v.input, true))) === hex(ipc(v)), fails, 'ie'),
    'ipc decode': tally(
      (v) => sameValue(codec.unpackIpc(ipc(v)), fromTagged(v.ipc.decoded, false)),
      fails,
      'id',
    ),
  };
  result.failing = fails.length ? fails.join(', ') : 'none';
  return result;
}

// ── Salt-shaped payloads ───────────────────────────────────────────────────────────────

function pem(bytes: number): string {
  const body = randomBytes(Math.ceil((bytes * 3) / 4))
    .toString('base64')
    .slice(0, bytes - 60);
  return `-----BEGIN PUBLIC KEY-----\n${body.match(/.{1,64}/g)?.join('\n')}\n-----END PUBLIC KEY-----`;
}

function payloads(): Record<string, unknown> {
  const jid = '20261122112214710558';
  const stdout = Array.from(
    { length: 160 },
    (_, i) =>
      `drwxr-xr-x   2 root root  4096 Nov 22 11:22 dir-${String(i).padStart(4, '0')}-${'x'.repeat(16)}`,
  ).join('\n');
  const grains: Record<string, unknown> = {};
  for (let i = 0; i < 80; i++) {
    const k = `grain_${i}`;
    grains[k] =
      i % 5 === 0
        ? [`v${i}`, `w${i}`, i]
        : i % 5 === 1
          ? { nested: `n${i}`, count: i * 1000, on: i % 2 === 0 }
          : i % 5 === 2
            ? i * 123_456
            : i % 5 === 3
              ? `value of grain ${i} – ünïcode`
              : i + 0.5;
  }
  return {
    'publish load': {
      fun: 'test.arg',
      arg: ['a', 1, { __kwarg__: true, k: 'v' }],
      tgt: '*',
      jid,
      ret: '',
      tgt_type: 'glob',
      user: 'root',
    },
    '_auth request': {
      enc: 'clear',
      load: {
        cmd: '_auth',
        id: 'vm1',
        nonce: randomBytes(16).toString('hex'),
        enc_algo: 'OAEP-SHA1',
        sig_algo: 'PKCS1v15-SHA1',
        token: randomBytes(256),
        pub: pem(800),
      },
      version: 3,
    },
    '_return 10 KB stdout': {
      cmd: '_return',
      id: 'vm1',
      success: true,
      return: stdout.slice(0, 10_240),
      retcode: 0,
      jid,
      fun: 'cmd.run',
      fun_args: ['ls -la /srv'],
      nonce: randomBytes(16).toString('hex'),
      ts: 1795000000,
      tok: randomBytes(256),
    },
    'grains 80 keys': grains,
  };
}

/** CPU time of this process in ms: unlike wall time, it does not count waiting for a busy machine. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Best ops/s of each function over interleaved rounds, timed in process CPU time: the machine
 * may be shared, so the best round is the figure least disturbed by other load, and
 * interleaving keeps the comparison fair.
 */
function bestOpsPerSecond(fns: (() => unknown)[], totalMs: number): number[] {
  const rounds = 8;
  const best = fns.map(() => 0);
  for (const fn of fns) for (let i = 0; i < 300; i++) fn();
  for (let r = 0; r < rounds; r++) {
    fns.forEach((fn, k) => {
      let n = 0;
      const start = cpuMs();
      let elapsed = 0;
      while (elapsed < totalMs / rounds) {
        for (let i = 0; i < 20; i++) fn();
        n += 20;
        elapsed = cpuMs() - start;
      }
      best[k] = Math.max(best[k] ?? 0, (n * 1000) / elapsed);
    });
  }
  return best.map(Math.round);
}

// ── main ───────────────────────────────────────────────────────────────────────────────

const ms = process.argv.includes('--quick') ? 150 : 600;
const codecs: Codec[] = [handWritten];
const mp = await optionalImport('@msgpack/msgpack');
if (mp) codecs.push(msgpackCodec(mp));
else console.log('@msgpack/msgpack not installed: skipped');
const mpr = await optionalImport('msgpackr');
if (mpr) codecs.push(msgpackrCodec(mpr));
else console.log('msgpackr not installed: skipped');

const vectorFile = resolve(repoRoot(), '../shared/salt-vectors/msgpack.json');
if (existsSync(vectorFile)) {
  const vectors = (JSON.parse(readFileSync(vectorFile, 'utf8')) as { vectors: Vector[] }).vectors;
  console.log(
    `\nCorrectness against ${vectors.length} msgpack.json vectors (byte-exact encode; decode = same values):`,
  );
  for (const c of codecs) console.log(`  ${c.name}:`, checkVectors(c, vectors));
} else {
  console.log(`\n(no vectors at ${vectorFile}: correctness not checked)`);
}

console.log(
  `\nThroughput, ops/s of CPU time, best of 8 interleaved rounds (Node ${process.version}, ~${ms} ms per figure):`,
);
const fmt = (n: number | undefined): string => (n === undefined ? 'n/a' : n.toLocaleString('en-US'));
for (const [label, value] of Object.entries(payloads())) {
  for (const form of ['network', 'ipc'] as const) {
    const usable = codecs.filter((c) => (form === 'network' ? c.packNetwork && c.unpackNetwork : true));
    const pack = (c: Codec) => (form === 'network' ? c.packNetwork : c.packIpc) as (v: unknown) => Uint8Array;
    const unpack = (c: Codec) =>
      (form === 'network' ? c.unpackNetwork : c.unpackIpc) as (b: Uint8Array) => unknown;
    const bytes = usable.map((c) => pack(c)(value));
    const enc = bestOpsPerSecond(
      usable.map((c) => () => pack(c)(value)),
      ms,
    );
    const dec = bestOpsPerSecond(
      usable.map((c, k) => () => unpack(c)(bytes[k] as Uint8Array)),
      ms,
    );
    const both = bestOpsPerSecond(
      usable.map((c) => () => unpack(c)(pack(c)(value))),
      ms,
    );
    const rows: Record<string, Record<string, string>> = {};
    for (const c of codecs) {
      const k = usable.indexOf(c);
      rows[c.name] = {
        encode: fmt(enc[k]),
        decode: fmt(dec[k]),
        'encode+decode': fmt(both[k]),
        bytes: k < 0 ? 'n/a' : String(bytes[k]?.length),
      };
    }
    console.log(`\n${label} (${form} form, ${bytes[0]?.length} bytes)`);
    console.table(rows);
  }
}
