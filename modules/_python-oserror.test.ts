import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { pythonOsError } from './_python-oserror.js';

describe("Python's socket error words", () => {
  it("words a refused connection as Python's str(OSError), other codes by their own message", async () => {
    // a port nothing listens on: bind one, note it, close it
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    await new Promise((r) => srv.close(r));
    const err = await new Promise<NodeJS.ErrnoException>((resolve) =>
      connect(port, '127.0.0.1').on('error', resolve),
    );
    expect(pythonOsError(err)).toBe('[Errno 111] Connection refused');
    expect(pythonOsError({ code: 'EAI_AGAIN', message: 'x' })).toBe(
      '[Errno -3] Temporary failure in name resolution',
    );
    expect(pythonOsError({ code: 'EPIPE', message: 'write EPIPE' })).toBe('write EPIPE');
    expect(pythonOsError({ code: 'toString', message: 'odd' })).toBe('odd');
    expect(pythonOsError(new Error('plain'))).toBe('plain');
  });
});
