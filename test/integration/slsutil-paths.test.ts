// slsutil.file_exists / dir_exists / path_exists / findup over a real masterless salt-call's
// state tree, and deserialize/banner through the CLI (Salt 3006.18 answers the same)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';

describe('slsutil paths in the state tree', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-slsutil-'));
  const call = localCaller(root, 'p1');

  beforeAll(() => {
    mkdirSync(join(root, 'srv/formulas/nginx/conf'), { recursive: true });
    mkdirSync(join(root, 'pillar'));
    writeFileSync(join(root, 'srv/formulas/map.jinja'), '{% set x = {} %}\n');
    writeFileSync(join(root, 'srv/formulas/nginx/init.sls'), 'n:\n  test.nop: []\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('tells files from folders and finds the nearest ancestor holding a name', async () => {
    expect((await call('slsutil.file_exists', 'formulas/nginx/init.sls')).local).toBe(true);
    expect((await call('slsutil.file_exists', 'formulas/nginx')).local).toBe(false);
    expect((await call('slsutil.dir_exists', 'formulas/nginx')).local).toBe(true);
    expect((await call('slsutil.path_exists', 'formulas/nope')).local).toBe(false);
    expect((await call('slsutil.findup', 'formulas/nginx/conf', 'map.jinja')).local).toBe(
      'formulas/map.jinja',
    );
    expect((await call('slsutil.findup', 'formulas/nginx/', '[nope, init.sls]')).local).toBe(
      'formulas/nginx/init.sls',
    );
    const none = await call('slsutil.findup', 'formulas/nginx', 'missing.jinja');
    expect(none.code).toBe(1);
    expect(none.output).toContain(
      "Error running 'slsutil.findup': File pattern(s) not found in path ancestry",
    );
  });

  it('deserializes yaml as an SLS would and draws a banner', async () => {
    expect((await call('slsutil.deserialize', 'yaml', 'a: [1, 2]\nc: yes\n')).local).toEqual({
      a: [1, 2],
      c: true,
    });
    const b = (await call('slsutil.banner', 'width=30', 'title=T', 'text=x')).local as string;
    expect(b.split('\n')).toEqual([
      '##############################',
      '#                            #',
      '#             T              #',
      '#                            #',
      '# x                          #',
      '##############################',
    ]);
  });
});
