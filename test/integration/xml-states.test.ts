/**
 * `xml.value_present` and the `xml` module through a real `salt-call --local`: an SLS over a
 * namespaced ISO-8859-1 file with CRLF line ends, in test mode, for real and again, and the
 * file's bytes after. Expectations: what Salt 3006.18 returned and wrote for the same SLS
 * (/tmp harness: 36 of 36 state returns and files identical over three runs).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tools/local-cluster.js';
import { localApply } from '../support/local-apply.js';

describe('xml states through salt-call --local', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-xml-'));
  const srv = join(root, 'srv');
  const apply = localApply(root, 'xml1', srv);
  const file = join(root, 'conf.xml');
  beforeAll(() => {
    mkdirSync(srv, { recursive: true });
    writeFileSync(
      file,
      Buffer.from(
        '<?xml version="1.0" encoding="ISO-8859-1"?>\r\n<!-- c -->\r\n<c xmlns:p="urn:p">\r\n  <p:v a="\xe9">caf\xe9</p:v>\r\n  <n>2</n><e/>\r\n</c>\r\n',
        'latin1',
      ),
    );
    const state = (id: string, xpath: string, value: string) =>
      `${id}:\n  xml.value_present:\n    - name: ${file}\n    - xpath: "${xpath}"\n    - value: ${value}\n`;
    writeFileSync(
      join(srv, 'x.sls'),
      state('v', '{urn:p}v', 'th\u00e9') +
        state('n', 'n', '2') +
        state('e', 'e', 'x') +
        state('nope', './/nope', 'x'),
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('predicts, writes as ElementTree does, then finds the value present', async () => {
    const first = await apply('x', 'test=True');
    expect(first.v).toMatchObject({
      result: null,
      comment: `${file} will be updated`,
      changes: { [file]: { old: 'caf\u00e9', new: 'th\u00e9' } },
    });
    expect(first.n).toMatchObject({ result: null, changes: { [file]: { old: '2', new: 2 } } });
    expect(first.e).toMatchObject({ result: false, comment: `xpath query e not found in ${file}` });
    expect(first.nope).toMatchObject({ result: false, comment: `xpath query .//nope not found in ${file}` });
    const real = await apply('x');
    expect(real.v).toMatchObject({ result: true, comment: `${file} updated` });
    expect(real.n).toMatchObject({ result: true, comment: `${file} updated` });
    expect(readFileSync(file, 'latin1')).toBe(
      '<c xmlns:ns0="urn:p">\n  <ns0:v a="&#233;">th&#233;</ns0:v>\n  <n>2</n><e />\n</c>',
    );
    const again = await apply('x');
    expect(again.v).toMatchObject({ result: true, changes: {}, comment: 'th\u00e9 is already present' });
    const etc = join(root, 'local-etc');
    const attr = await runCli(
      'salt-call',
      ['-c', etc, '--local', '--out', 'json', 'xml.get_attribute', file, '{urn:p}v'],
      60_000,
    );
    expect(JSON.parse(attr.stdout)).toEqual({ local: { a: '\u00e9' } });
  });
});
