/**
 * The client CLIs' standard output and error: everything they print reaches the pipe, file or
 * terminal before the process exits.
 *
 * Node writes to a pipe asynchronously on POSIX: a write the pipe cannot take at once waits in
 * the stream's queue, and `process.exit()` drops that queue. `salt ... | wc -c` read exactly
 * 65,536 bytes (a Linux pipe's buffer) of a 688,917-byte output. Files and terminals are
 * already written synchronously; {@link blockingStdio} makes pipes so too, so that every exit
 * path, including the usage errors that exit from deep inside option parsing, is safe. A reader
 * that is slow then slows the CLI down, as it would any Unix tool.
 *
 * A reader that goes away (`salt ... | head`) ends the CLI quietly with 141, the status a shell
 * reports for a process killed by SIGPIPE, instead of an uncaught EPIPE. The stream reports it a
 * tick after the failed write, so a CLI ends through {@link exitWhenWritten}, which hears it.
 */

interface BlockableHandle {
  setBlocking?(blocking: boolean): number;
}

/** The exit status of a process that wrote to a closed pipe (128 + SIGPIPE). */
export const EXIT_BROKEN_PIPE = 141;

/** Marks a stream already made blocking (by the single-file CLI before it handed over to this copy). */
const BLOCKING = Symbol.for('tsalt.blockingStdio');

function makeBlocking(stream: NodeJS.WriteStream & { [BLOCKING]?: true }): void {
  if (stream[BLOCKING]) return;
  stream[BLOCKING] = true;
  // `_handle` is Node's libuv stream (Pipe, TTY or TCP); files have none and are synchronous.
  const handle = (stream as unknown as { _handle?: BlockableHandle })._handle;
  handle?.setBlocking?.(true);
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT_BROKEN_PIPE);
    throw err;
  });
}

/** Makes stdout and stderr blocking; call first thing in a client CLI (not in a daemon). */
export function blockingStdio(): void {
  makeBlocking(process.stdout);
  makeBlocking(process.stderr);
}

/** Exits with `code` once stdout and stderr have reported on every write made so far. */
export async function exitWhenWritten(code: number): Promise<never> {
  const written = (stream: NodeJS.WriteStream): Promise<void> =>
    new Promise((done) => {
      if (stream.destroyed) done();
      else stream.write('', () => done());
    });
  await Promise.all([written(process.stdout), written(process.stderr)]);
  process.exit(code);
}
