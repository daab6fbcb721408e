/**
 * The `tail` engine: follows a text file (a log) and fires one event per new line,
 * `tsalt/engines/tail/<name>` with `{path, line}`, optionally only for lines matching a
 * regular expression. Survives rotation and truncation (reopens when the file is replaced or
 * shrinks) and starts at the end of the file unless `from_start` is set.
 */
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { defineEngine } from '../../kernel/index.js';

const options = z.object({
  path: z.string().min(1),
  /** Event tag suffix; default: the file's base name. */
  name: z.string().min(1).optional(),
  /** Only lines matching this regular expression fire. */
  match: z
    .string()
    .optional()
    .refine((s) => {
      if (s === undefined) return true;
      try {
        new RegExp(s);
        return true;
      } catch {
        return false;
      }
    }, 'not a valid regular expression'),
  from_start: z.boolean().default(false),
  /** How often the file is checked, in ms. */
  interval_ms: z.number().int().min(10).default(250),
});

export default defineEngine({
  name: 'tail',
  doc: 'Fires an event for each new line of a file (optionally only matching lines).',
  options,
  start(ctx) {
    const { path, from_start, interval_ms } = ctx.options;
    const tag = `tsalt/engines/tail/${ctx.options.name ?? basename(path)}`;
    const match = ctx.options.match ? new RegExp(ctx.options.match) : undefined;
    let position = -1;
    let inode = -1;
    let partial = '';
    let busy = false;

    const poll = async () => {
      const st = await stat(path).catch(() => undefined);
      if (!st) return;
      if (position < 0) position = from_start ? 0 : st.size;
      if (st.ino !== inode && inode !== -1) position = 0; // rotated: a new file
      if (st.size < position) position = 0; // truncated
      inode = st.ino;
      if (st.size === position) return;
      const fh = await open(path, 'r');
      try {
        const length = Math.min(st.size - position, 1024 * 1024);
        const buf = Buffer.alloc(length);
        const { bytesRead } = await fh.read(buf, 0, length, position);
        position += bytesRead;
        const lines = (partial + buf.subarray(0, bytesRead).toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (match && !match.test(line)) continue;
          await ctx.fire(tag, { path, line });
        }
      } finally {
        await fh.close();
      }
    };
    const tick = () => {
      if (busy) return;
      busy = true;
      poll()
        .catch((err) => ctx.log.warn({ err, path }, 'tail engine could not read the file'))
        .finally(() => {
          busy = false;
        });
    };
    const timer = setInterval(tick, interval_ms);
    tick();
    return () => clearInterval(timer);
  },
});
