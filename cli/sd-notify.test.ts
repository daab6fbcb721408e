import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notifyReady } from './sd-notify.js';

/** A unix datagram socket as systemd listens on one (Python: Node has no such sockets). */
function listen(path: string): Promise<string> {
  const py = spawn('python3', [
    '-c',
    [
      'import socket, sys',
      's = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)',
      `s.bind(${JSON.stringify(path)})`,
      'print("bound", flush=True)',
      's.settimeout(20)',
      'sys.stdout.write(s.recv(4096).decode())',
    ].join('\n'),
  ]);
  let out = '';
  return new Promise((resolve, reject) => {
    py.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    py.on('exit', (code) => (code === 0 ? resolve(out.replace(/^bound\n/, '')) : reject(new Error(out))));
  });
}

describe('notifyReady', () => {
  it('sends READY=1 and the status to NOTIFY_SOCKET for this pid', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tsalt-notify-')), 'notify');
    const got = listen(path);
    // the listener binds before systemd-notify sends
    for (let i = 0; i < 100; i++) {
      if (existsSync(path)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await notifyReady('salt-minion started', undefined, { ...process.env, NOTIFY_SOCKET: path });
    const message = await got;
    expect(message.split('\n')).toEqual(
      expect.arrayContaining(['READY=1', 'STATUS=salt-minion started', `MAINPID=${process.pid}`]),
    );
  });

  it('does nothing outside systemd', async () => {
    await expect(notifyReady('x', undefined, {})).resolves.toBeUndefined();
  });
});
