import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileServerRequest, localFileServer } from '../plugins/file-server/index.js';
import { MANIFEST_NAME, type MasterRequestFn, readManifest, staleFiles, syncForm } from './_extmods-sync.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-sync-'));
const root = join(top, 'srv');
const extmods = join(top, 'extmods');
mkdirSync(join(root, '_modules', 'sub'), { recursive: true });
const serve = fileServerRequest(
  localFileServer({ file_roots: { base: [root] }, file_buffer_size: 5, hash_type: 'sha256', cachedir: top }),
);

let requests: string[] = [];
const paths: string[] = [];
/** The master, straight from the file server handlers. */
const request: MasterRequestFn = async (load) => {
  requests.push(String(load.cmd));
  if (load.path !== undefined) paths.push(String(load.path));
  return serve(load);
};
const sync = () =>
  syncForm({ extensionModules: extmods, form: 'modules', saltenvs: ['base'], hashType: 'sha256', request });
const local = (name: string) => join(extmods, 'modules', name);

afterAll(() => rmSync(top, { recursive: true, force: true }));

describe('staleFiles', () => {
  it('removes only what the manifest lists and the master no longer has', () => {
    expect(staleFiles(['a.js', 'b.mjs', 'c.js'], new Set(['b.mjs']))).toEqual(['a.js', 'c.js']);
    expect(staleFiles([], new Set(['b.mjs']))).toEqual([]);
  });
});

describe('syncForm', () => {
  it('downloads new modules in chunks and reports them as Salt does', async () => {
    writeFileSync(join(root, '_modules', 'hello.mjs'), 'export default 1;\n');
    writeFileSync(join(root, '_modules', 'notes.txt'), 'not a module');
    writeFileSync(join(root, '_modules', 'sub', 'deep.js'), 'nested');
    expect(await sync()).toEqual({ changed: ['modules.hello'], touched: true });
    // relative paths, as Salt's file client sends them: a Salt master serves no `salt://` path
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => p === '_modules/hello.mjs')).toBe(true);
    expect(readFileSync(local('hello.mjs'), 'utf8')).toBe('export default 1;\n');
    expect(existsSync(local('notes.txt'))).toBe(false);
    expect(existsSync(local('deep.js'))).toBe(false);
    expect(await readManifest(join(extmods, 'modules'))).toEqual(['hello.mjs']);
  });

  it('does not download an unchanged file again', async () => {
    requests = [];
    expect(await sync()).toEqual({ changed: [], touched: false });
    expect(requests).not.toContain('_serve_file');
  });

  it('replaces a changed file', async () => {
    writeFileSync(join(root, '_modules', 'hello.mjs'), 'export default 2; // longer than one chunk\n');
    expect((await sync()).changed).toEqual(['modules.hello']);
    expect(readFileSync(local('hello.mjs'), 'utf8')).toContain('export default 2;');
  });

  it('removes synced files the master dropped, and keeps files it never synced', async () => {
    writeFileSync(local('mine.js'), 'placed by hand');
    rmSync(join(root, '_modules', 'hello.mjs'));
    expect(await sync()).toEqual({ changed: [], touched: true });
    expect(existsSync(local('hello.mjs'))).toBe(false);
    expect(existsSync(local('mine.js'))).toBe(true);
    expect(await readManifest(join(extmods, 'modules'))).toEqual([]);
  });

  it('ignores manifest entries that are not plain module names', async () => {
    writeFileSync(
      join(extmods, 'modules', MANIFEST_NAME),
      JSON.stringify({ files: ['../escape.js', 'mine.js'] }),
    );
    writeFileSync(join(extmods, 'escape.js'), 'outside');
    await sync();
    expect(existsSync(join(extmods, 'escape.js'))).toBe(true);
    expect(existsSync(local('mine.js'))).toBe(false);
  });
});
