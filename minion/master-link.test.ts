import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { MasterRequest } from './job-protocol.js';
import { answerMasterRequest, ipcMasterLink, masterLink } from './master-link.js';

describe('master link over IPC', () => {
  it('relays a load to the main process and back, bytes intact', async () => {
    const child = new EventEmitter();
    const endpoint = {
      on: (event: 'message', fn: (m: unknown) => void) => child.on(event, fn),
      send(message: unknown): boolean {
        const msg = message as MasterRequest;
        void answerMasterRequest(msg, async (load) => ({ echo: load.cmd, data: Buffer.from([0, 255]) })).then(
          (reply) => child.emit('message', reply),
        );
        return true;
      },
    };
    const link = ipcMasterLink(endpoint);
    const reply = (await link.request({ cmd: '_serve_file' })) as { echo: string; data: Uint8Array };
    expect(reply.echo).toBe('_serve_file');
    expect([...reply.data]).toEqual([0, 255]);
  });

  it('turns a failed master request into an error in the job', async () => {
    const child = new EventEmitter();
    const link = ipcMasterLink({
      on: (event, fn) => child.on(event, fn),
      send(message) {
        void answerMasterRequest(message as MasterRequest, async () => {
          throw new Error('timed out');
        }).then((r) => child.emit('message', r));
        return true;
      },
    });
    await expect(link.request({ cmd: '_file_list' })).rejects.toThrow(/timed out/);
  });

  it('has no link for a minion without a master', () => {
    expect(() => masterLink('nobody')).toThrow(/no connection to a master/);
  });
});
