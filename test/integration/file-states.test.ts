/**
 * The file states added for issue 20 end to end: a real master serves an SLS and a salt://
 * folder, a real minion applies `file.recurse`, `file.line`, `file.keyvalue` and
 * `file.accumulated` feeding a `file.managed` template, with a `pillar=` override on
 * `state.apply` that the template sees; then a second run changes nothing.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

type Entry = { result: boolean | null; changes: Record<string, unknown>; comment: string };

describe('file states through real daemons', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const srv = join(c.root, 'srv', 'salt');
  const out = join(c.root, 'out');

  beforeAll(async () => {
    write(join(srv, 'site', 'index.html'), '<h1>{{ pillar.get("title", "none") }}</h1>\n');
    write(join(srv, 'site', 'css', 'main.css'), 'body {}\n');
    write(
      join(srv, 'motd.j2'),
      'who: {{ pillar.get("title", "none") }}\n{% for l in accumulator["lines"] %}{{ l }}\n{% endfor %}',
    );
    write(join(out, 'conf'), 'a\nb\nkey=old\n');
    write(
      join(srv, 'files.sls'),
      [
        'site:',
        '  file.recurse:',
        `    - name: ${join(out, 'site')}`,
        '    - source: salt://site',
        '    - template: jinja',
        '    - file_mode: "0640"',
        'line:',
        '  file.line:',
        `    - name: ${join(out, 'conf')}`,
        '    - content: x',
        '    - after: b',
        '    - mode: ensure',
        'kv:',
        '  file.keyvalue:',
        `    - name: ${join(out, 'conf')}`,
        '    - key: key',
        '    - value: new',
        'acc1:',
        '  file.accumulated:',
        '    - name: lines',
        `    - filename: ${join(out, 'motd')}`,
        '    - text: [one, two]',
        '    - require_in:',
        '      - file: motd',
        'motd:',
        '  file.managed:',
        `    - name: ${join(out, 'motd')}`,
        '    - source: salt://motd.j2',
        '    - template: jinja',
        '',
      ].join('\n'),
    );
    Object.assign(master, { file_roots: { base: [srv] } });
    await c.startMaster();
    await c.startMinion('m1');
  }, 90_000);
  afterAll(() => c.stop());

  const apply = async (...args: string[]) => {
    const r = await c.saltJson(['m1', 'state.apply', 'files', ...args]);
    return { code: r.code, ret: r.data.m1 as Record<string, Entry> };
  };

  it('applies recurse, line, keyvalue and accumulated with the pillar override, then is stable', async () => {
    const first = await apply('pillar={"title": "from-override"}');
    expect(first.code).toBe(0);
    const r = first.ret;
    expect(r[`file_|-site_|-${join(out, 'site')}_|-recurse`]).toMatchObject({
      result: true,
      comment: `Recursively updated ${join(out, 'site')}`,
    });
    expect(Object.keys(r[`file_|-site_|-${join(out, 'site')}_|-recurse`]!.changes).sort()).toEqual([
      join(out, 'site', 'css'),
      join(out, 'site', 'css', 'main.css'),
      join(out, 'site', 'index.html'),
    ]);
    expect(readFileSync(join(out, 'site', 'index.html'), 'utf8')).toBe('<h1>from-override</h1>\n');
    expect(r[`file_|-line_|-${join(out, 'conf')}_|-line`]).toMatchObject({
      result: true,
      comment: 'Changes were made',
      changes: { diff: '--- \n+++ \n@@ -1,3 +1,4 @@\n a\n b\n+x\n key=old\n' },
    });
    expect(r[`file_|-kv_|-${join(out, 'conf')}_|-keyvalue`]).toMatchObject({
      result: true,
      comment: 'Changed 1 lines',
      changes: { diff: '- key=old\n+ key=new\n' },
    });
    expect(readFileSync(join(out, 'conf'), 'utf8')).toBe('a\nb\nx\nkey=new\n');
    expect(r[`file_|-acc1_|-lines_|-accumulated`]).toMatchObject({
      result: true,
      comment: `Accumulator lines for file ${join(out, 'motd')} was charged by text`,
    });
    expect(readFileSync(join(out, 'motd'), 'utf8')).toBe('who: from-override\none\ntwo\n');

    const again = await apply('pillar={"title": "from-override"}');
    expect(again.code).toBe(0);
    for (const [tag, e] of Object.entries(again.ret)) {
      expect(e.result, tag).toBe(true);
      expect(e.changes, tag).toEqual({});
    }
    expect(again.ret[`file_|-line_|-${join(out, 'conf')}_|-line`]!.comment).toBe(
      'No changes needed to be made',
    );
    expect(again.ret[`file_|-kv_|-${join(out, 'conf')}_|-keyvalue`]!.comment).toBe('');
    expect(again.ret[`file_|-motd_|-${join(out, 'motd')}_|-managed`]!.comment).toBe(
      `File ${join(out, 'motd')} is in the correct state`,
    );
  });
});
