import { describe, expect, it } from 'vitest';
import {
  decodeEventBody,
  decodeIpcMessage,
  encodeEventBody,
  encodeIpcMessage,
  type IpcMessage,
  IpcStreamDecoder,
  packIpc,
  packNetwork,
  TAGEND,
  unpackIpc,
  unpackNetwork,
} from '../../kernel/serial/index.js';
import { type Blob, blob, expectTaggedEqual, fromTagged, loadVectors } from './vectors.js';

interface MsgpackVector {
  name: string;
  note: string;
  input: unknown;
  network: Blob;
  ipc: Blob;
}

interface EventVector {
  tag: string;
  ipc_message: Blob;
  body: Blob;
  data_msgpack: Blob;
}

interface JobDir {
  jid: string;
  fun: string;
  files: { name: string; file: Blob }[];
}

const msgpack = loadVectors('msgpack') as { vectors: MsgpackVector[] };
const events = loadVectors('events') as { events: EventVector[] };
const jid = loadVectors('jid') as { real_job_dirs: JobDir[] };

const NETWORK_DECODER = 'salt.payload.loads(b)';
const IPC_DECODER = "salt.payload.loads(b, encoding='utf-8')";

describe('msgpack.json: Salt 3006.18 packers and unpackers', () => {
  describe.each(msgpack.vectors)('$name', (v) => {
    const network = blob(v.network);
    const ipc = blob(v.ipc);

    it('packs the input to the exact network and IPC bytes', () => {
      expect(packNetwork(fromTagged(v.input)).toString('hex')).toBe(network.toString('hex'));
      expect(packIpc(fromTagged(v.input)).toString('hex')).toBe(ipc.toString('hex'));
    });

    it('decodes both forms to the recorded values', () => {
      expect(v.network.decoder).toBe(NETWORK_DECODER);
      expect(v.ipc.decoder).toBe(IPC_DECODER);
      expectTaggedEqual(unpackNetwork(network), v.network.decoded);
      expectTaggedEqual(unpackIpc(ipc), v.ipc.decoded);
      expectTaggedEqual(unpackNetwork(network, { exactFloats: true }), v.network.decoded, {
        exactFloats: true,
      });
      expectTaggedEqual(unpackIpc(ipc, { exactFloats: true }), v.ipc.decoded, { exactFloats: true });
    });

    it('re-encodes the decoded values to the same bytes', () => {
      expect(packNetwork(fromTagged(v.network.decoded)).toString('hex')).toBe(network.toString('hex'));
      expect(packIpc(fromTagged(v.ipc.decoded)).toString('hex')).toBe(ipc.toString('hex'));
      const net = unpackNetwork(network, { exactFloats: true });
      expect(packNetwork(net).toString('hex')).toBe(network.toString('hex'));
      const local = unpackIpc(ipc, { exactFloats: true });
      expect(packIpc(local).toString('hex')).toBe(ipc.toString('hex'));
    });
  });
});

describe('events.json: master event bus messages', () => {
  const all = events.events;

  it.each(all.map((e, i) => ({ ...e, i })))('#$i $tag', (e) => {
    const message = blob(e.ipc_message);
    const body = blob(e.body);
    const data = blob(e.data_msgpack);

    const framed = decodeIpcMessage(message);
    expectTaggedEqual(framed, e.ipc_message.decoded);
    expect(Buffer.isBuffer(framed.body) && (framed.body as Buffer).equals(body)).toBe(true);
    expect(encodeIpcMessage(body).equals(message)).toBe(true);

    const event = decodeEventBody(body);
    expect(event.tag).toBe(e.tag);
    expectTaggedEqual(event, e.body.decoded);
    expect(body.subarray(body.indexOf(TAGEND) + 2).equals(data)).toBe(true);
    expect(packIpc(event.data).equals(data)).toBe(true);
    expect(encodeEventBody(event.tag, event.data as Record<string, unknown>).equals(body)).toBe(true);

    expect(e.data_msgpack.decoder).toBe(IPC_DECODER);
    expectTaggedEqual(unpackIpc(data), e.data_msgpack.decoded);
  });

  it('splits the raw socket stream back into the same messages, whatever the chunking', () => {
    const stream = Buffer.concat(all.map((e) => blob(e.ipc_message)));
    for (const size of [1, 7, 64, 541, 4096, stream.length]) {
      const reader = new IpcStreamDecoder();
      const got: IpcMessage[] = [];
      for (let off = 0; off < stream.length; off += size) {
        reader.push(stream.subarray(off, off + size), (m) => got.push(m));
      }
      expect(reader.pending).toBe(0);
      expect(got.map((m) => (m.body as Buffer).toString('base64'))).toEqual(all.map((e) => e.body.b64));
    }
  });
});

describe('jid.json: the live master job cache files', () => {
  const files = jid.real_job_dirs.flatMap((d) =>
    d.files.filter((f) => f.file.decoder === IPC_DECODER).map((f) => ({ ...f, where: `${d.fun} ${f.name}` })),
  );

  it('covers .load.p, .minions.p and return.p of both jobs', () => {
    expect(files.map((f) => f.name).sort()).toEqual(
      ['.load.p', '.load.p', '.minions.p', '.minions.p', 'vm1/return.p', 'vm1/return.p'].sort(),
    );
  });

  it.each(files)('$where decodes with unpackIpc and re-encodes identically', (f) => {
    const bytes = blob(f.file);
    const value = unpackIpc(bytes, { exactFloats: true });
    expectTaggedEqual(value, f.file.decoded, { exactFloats: true });
    expect(packIpc(value).equals(bytes)).toBe(true);
  });
});

/** Every msgpack blob with a Salt decoder in every vector file. */
function collectBlobs(): { where: string; blob: Blob }[] {
  const found: { where: string; blob: Blob }[] = [];
  const walk = (v: unknown, where: string): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        walk(x, `${where}[${i}]`);
      });
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    const o = v as Record<string, unknown>;
    if (typeof o.b64 === 'string' && typeof o.decoder === 'string') found.push({ where, blob: o as Blob });
    for (const [k, x] of Object.entries(o)) walk(x, `${where}.${k}`);
  };
  for (const name of ['auth', 'crypticle', 'events', 'jid', 'msgpack', 'publish', 'return', 'token']) {
    walk(loadVectors(name), name);
  }
  return found;
}

describe('every msgpack blob of every vector file', () => {
  const blobs = collectBlobs();
  const PICKLE = Buffer.from('pickle::', 'latin1');

  it.each(blobs.filter((b) => b.blob.decoder !== 'utf-8 text'))('$where ($blob.decoder)', ({ blob: b }) => {
    let bytes = blob(b);
    const decoder = b.decoder as string;
    let network = decoder === NETWORK_DECODER;
    if (decoder === 'crypticle plaintext') {
      expect(bytes.subarray(0, PICKLE.length).equals(PICKLE)).toBe(true);
      const nonce = typeof b.nonce === 'string' ? b.nonce.length : 0;
      bytes = bytes.subarray(PICKLE.length + nonce);
      network = true;
    } else if (decoder === 'salt.utils.event.SaltEvent.unpack(b)') {
      const event = decodeEventBody(bytes);
      expectTaggedEqual(event, b.decoded);
      expect(encodeEventBody(event.tag, event.data as Record<string, unknown>).equals(bytes)).toBe(true);
      return;
    } else {
      expect([NETWORK_DECODER, IPC_DECODER, 'salt.utils.msgpack.Unpacker(raw=False)']).toContain(decoder);
    }
    const unpack = network ? unpackNetwork : unpackIpc;
    const pack = network ? packNetwork : packIpc;
    expectTaggedEqual(unpack(bytes), b.decoded);
    const exact = unpack(bytes, { exactFloats: true });
    expectTaggedEqual(exact, b.decoded, { exactFloats: true });
    expect(pack(exact).toString('hex')).toBe(bytes.toString('hex'));
  });
});
