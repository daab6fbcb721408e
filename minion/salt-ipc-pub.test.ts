import { describe, expect, it } from 'vitest';
import { packIpc } from '../kernel/serial/index.js';
import { saltIpcFrame } from './salt-ipc-pub.js';

describe('saltIpcFrame', () => {
  it("is msgpack {head: {}, body: <bin>}, as Salt's frame_msg_ipc packs it, at every bin size", () => {
    for (const n of [0, 47, 255, 256, 65535, 65536, 300_000]) {
      const body = Buffer.alloc(n, 0x61);
      expect(saltIpcFrame(body).equals(packIpc({ head: {}, body }))).toBe(true);
    }
  });
});
