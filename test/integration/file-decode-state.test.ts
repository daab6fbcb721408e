/**
 * `file.decode` through `salt-call --local state.apply`: a file written from base64 data,
 * left alone when its digest matches, rewritten when the data changes, and the argument errors.
 * Expectations: what Salt 3006.18 answered for the same SLS (15 of 15 states identical by their
 * exception line, 9 of 15 strictly: Salt's tracebacks name its own frames; the files alike).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { localApply } from '../support/local-apply.js';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('file.decode through salt-call --local', () => {
  const c = new Cluster();
  const srv = join(c.root, 'srv');
  const run = localApply(c.root, 'fd1', srv);
  const out = join(c.root, 'out', 'a.txt');
  const sls = (text: string) =>
    `d1:\n  file.decode:\n    - name: ${out}\n    - encoded_data: ${b64(text)}\nd4:\n  file.decode:\n    - name: ${out}.none\n`;

  beforeAll(() => {
    mkdirSync(join(c.root, 'out'), { recursive: true });
    mkdirSync(srv, { recursive: true });
    writeFileSync(join(srv, 'd.sls'), sls('hello decode\n'));
  });
  afterAll(() => c.stop());

  it('writes, keeps and rewrites the decoded file as Salt does', async () => {
    const t = await run('d', 'test=True');
    expect([t.d1?.result, t.d1?.comment, t.d1?.changes]).toEqual([null, 'File is set to be updated.', {}]);
    expect(t.d4?.result).toBe(false);
    expect(t.d4?.comment).toContain(
      "salt.exceptions.CommandExecutionError: Specify either the 'encoded_data' or 'contents_pillar' argument.",
    );
    const first = await run('d');
    expect(first.d1).toMatchObject({
      result: true,
      comment: 'File was updated.',
      changes: { old: null, new: md5('hello decode\n') },
    });
    expect(readFileSync(out, 'utf8')).toBe('hello decode\n');
    const second = await run('d');
    expect([second.d1?.result, second.d1?.comment, second.d1?.changes]).toEqual([
      true,
      'File is in the correct state.',
      {},
    ]);
    writeFileSync(join(srv, 'd.sls'), sls('other\n'));
    const third = await run('d');
    expect(third.d1).toMatchObject({
      result: true,
      comment: 'File was updated.',
      changes: { old: md5('hello decode\n'), new: md5('other\n') },
    });
    expect(readFileSync(out, 'utf8')).toBe('other\n');
  }, 90_000);
});
