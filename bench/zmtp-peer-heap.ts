/**
 * Live heap per connected peer of a ZMTP ROUTER (kernel/bus/zmtp/router-server.ts): the request
 * server holds one per minion. A child process opens `count` raw ZMTP connections (greeting and
 * a REQ's READY); the heap is measured after `gc()` before and after they are all in.
 * `node --expose-gc dist/bench/zmtp-peer-heap.js [--count 4000]`
 */
import { fork } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { greeting, readyCommand } from '../kernel/bus/zmtp/handshake.js';
import { ZmtpRouter } from '../kernel/bus/zmtp/router-server.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function connectAll(port: number, count: number): Promise<Socket[]> {
  const hello = Buffer.concat([greeting(), readyCommand({ 'Socket-Type': 'REQ', Identity: '' })]);
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    await new Promise<void>((resolve) => {
      const s = connect({ host: '127.0.0.1', port }, () => {
        s.write(hello);
        resolve();
      });
      s.on('data', () => {});
      sockets.push(s);
    });
  }
  return sockets;
}

async function settledHeap(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  for (let i = 0; i < 4; i++) {
    gc();
    await sleep(50);
  }
  return process.memoryUsage().heapUsed;
}

async function main(argv: string[]): Promise<void> {
  const i = argv.indexOf('--count');
  const count = i >= 0 ? Number(argv[i + 1]) : 4000;
  if (argv[0] === '--client') {
    await connectAll(Number(argv[1]), count);
    process.send?.('up');
    return;
  }
  const router = new ZmtpRouter({ onMessage: () => {} });
  await router.bind('127.0.0.1', 0);
  const before = await settledHeap();
  const child = fork(fileURLToPath(import.meta.url), [
    '--client',
    String(router.port),
    '--count',
    String(count),
  ]);
  await new Promise((resolve) => child.once('message', resolve));
  while (router.connected < count) await sleep(50);
  const after = await settledHeap();
  process.stdout.write(
    `live heap per connected ZMTP peer, ${count} peers: ${((after - before) / count).toFixed(0)} B\n`,
  );
  child.kill();
  await router.close();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
