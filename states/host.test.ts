import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import hostsMod from '../modules/hosts.js';
import { moduleCtx, runState } from './_test-ctx.js';
import host from './host.js';

// A temp hosts file through the `hosts.file` option; expectations: Salt 3006.18's returns and
// file contents for the same steps.
let dir: string;
let file: string;
let ctx: ReturnType<typeof moduleCtx>;
const st = (fn: string, kw: Record<string, unknown>, test = false) => runState(host, fn, kw, { ctx, test });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-hosts-'));
  file = path.join(dir, 'hosts');
  await writeFile(file, '127.0.0.1\tlocalhost\n# a comment\n\n10.0.0.1 one uno # first\n');
  ctx = moduleCtx([hostsMod], { opts: { 'hosts.file': file } });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('host states over a hosts file', () => {
  it('lists, adds and keeps hosts', async () => {
    expect(await ctx.call('hosts.list_hosts', [])).toEqual({
      '10.0.0.1': { aliases: ['one', 'uno'], comment: 'first' },
      '127.0.0.1': { aliases: ['localhost'] },
      'comment-0': ['# a comment'],
    });
    expect(await st('present', { name: 'web', ip: '10.0.0.2' }, true)).toEqual({
      name: 'web',
      changes: { added: { '10.0.0.2': ['web'] } },
      result: null,
      comment: 'Host web (10.0.0.2) would be added',
    });
    expect(await st('present', { name: 'web', ip: '10.0.0.2' })).toEqual({
      name: 'web',
      changes: { added: { '10.0.0.2': ['web'] } },
      result: true,
      comment: 'Added host web (10.0.0.2)',
    });
    expect(await readFile(file, 'utf8')).toBe(
      '127.0.0.1\t\tlocalhost\n# a comment\n10.0.0.1\t\tone uno\t\t# first\n10.0.0.2\t\tweb\n',
    );
    expect(await st('present', { name: 'web', ip: '10.0.0.2' })).toEqual({
      name: 'web',
      changes: {},
      result: true,
      comment: 'Host web (10.0.0.2) already present',
    });
  });

  it('warns about, then cleans, the name on other ips; sets comments', async () => {
    expect(await st('present', { name: 'web', ip: '10.0.0.3', comment: 'hi' })).toEqual({
      name: 'web',
      changes: { added: { '10.0.0.3': ['web'] }, comment_added: { '10.0.0.3': ['hi'] } },
      result: true,
      comment: 'Added host web (10.0.0.3)\nSet comment for host 10.0.0.3 (hi)',
      warnings: [
        "Host web present for IP address 10.0.0.2. To get rid of this warning, either run this state with 'clean' set to True to remove web from 10.0.0.2, or add 10.0.0.2 to the 'ip' argument.",
      ],
    });
    expect(await st('present', { name: 'web', ip: '10.0.0.3', clean: true })).toEqual({
      name: 'web',
      changes: { removed: { '10.0.0.2': ['web'] } },
      result: true,
      comment: 'Host web (10.0.0.3) already present\nRemoved host web (10.0.0.2)',
    });
    expect(await st('present', { name: 'one', ip: '10.0.0.1', comment: 'changed' })).toEqual({
      name: 'one',
      changes: { comment_added: { '10.0.0.1': ['changed'] } },
      result: true,
      comment: 'Set comment for host 10.0.0.1 (changed)',
    });
    expect(await readFile(file, 'utf8')).toBe(
      '127.0.0.1\t\tlocalhost\n# a comment\n10.0.0.1\t\tone uno\t\t# changed\n10.0.0.3\t\tweb\t\t# hi\n',
    );
  });

  it('removes a host and sets an ip to only some names', async () => {
    expect(await st('absent', { name: 'web', ip: '10.0.0.3' }, true)).toEqual({
      name: 'web',
      changes: {},
      result: null,
      comment: 'Host web (10.0.0.3) needs to be removed',
    });
    expect(await st('absent', { name: 'web', ip: '10.0.0.3' })).toEqual({
      name: 'web',
      changes: { host: 'web' },
      result: true,
      comment: 'Removed host web (10.0.0.3)',
    });
    expect(await st('absent', { name: 'web', ip: '10.0.0.3' })).toEqual({
      name: 'web',
      changes: {},
      result: true,
      comment: 'Host web (10.0.0.3) already absent',
    });
    expect(await st('only', { name: '10.0.0.1', hostnames: ['a', 'b'] })).toEqual({
      name: '10.0.0.1',
      changes: { '10.0.0.1': { old: 'one uno', new: 'a b' } },
      result: true,
      comment: 'successfully changed 10.0.0.1 from "one uno" to "a b"',
    });
    expect(await st('only', { name: '10.0.0.1', hostnames: ['a', 'b'] })).toEqual({
      name: '10.0.0.1',
      changes: {},
      result: true,
      comment: 'IP address 10.0.0.1 already set to "a b"',
    });
    expect(await readFile(file, 'utf8')).toBe('127.0.0.1\t\tlocalhost\n# a comment\n10.0.0.1\t\ta b\n');
  });
});
