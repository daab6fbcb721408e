// file.apply_template_on_contents, cp.cache_dest, cp.recv_chunked (what salt-cp calls on a
// minion) and archive.rar without its program, through a real masterless salt-call. The expected
// answers are Salt 3006.18's for the same calls (/tmp/files18/harness.mjs).

import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { localCaller } from '../support/local-call.js';

describe('file, cp and archive functions through salt-call', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-fcam-'));
  const call = localCaller(root, 'fcam');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('renders contents with defaults under context, and refuses an engine Salt lacks', async () => {
    const r = await call(
      'file.apply_template_on_contents',
      'hello {{ a }} {{ b }}',
      'jinja',
      '{a: 1}',
      '{a: 0, b: 2}',
      'base',
    );
    expect(r.local).toBe('hello 1 2');
    const y = await call('file.apply_template_on_contents', 'x', 'yaml', 'None', 'None', 'base');
    expect(y.local).toEqual({ result: false, comment: 'Specified template format yaml is not supported' });
    expect(y.code).toBe(1);
  });

  it("names a URL's cache path as Salt's file client does", async () => {
    const r = await call('cp.cache_dest', 'https://user:pw@h.example:8080/a/b.rpm?x=1&y=2');
    expect(r.local).toBe(
      join(root, 'root/var/cache/salt/minion/extrn_files/base/h.example8080/a/b.rpm-x=1&y=2'),
    );
  });

  it('writes a gzipped chunk salt-cp sends, with its mode, parents made', async () => {
    const dest = join(root, 'rc/a/b.txt');
    const chunk = gzipSync(Buffer.from('hello\n')).toString('base64');
    const r = await call('cp.recv_chunked', dest, `chunk=${chunk}`, 'mode=384');
    expect(r.local).toBe(true);
    expect(readFileSync(dest, 'utf8')).toBe('hello\n');
    expect(statSync(dest).mode & 0o777).toBe(0o600);
  });

  it.skipIf(which('rar') !== null)("answers Salt's CommandNotFoundError when rar is missing", async () => {
    const r = await call('archive.rar', join(root, 'x.rar'), '/etc/hostname');
    expect(r.code).toBe(1);
    expect(r.output).toContain(
      "Command required for 'archive.rar' not found: The 'rar' binary was not found in $PATH.",
    );
  });
});
