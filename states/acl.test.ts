import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../modules/_which.js';
import aclMod from '../modules/acl.js';
import cmdMod from '../modules/cmd.js';
import { moduleCtx, runState } from './_test-ctx.js';
import acl from './acl.js';

// Real getfacl/setfacl on temp files, entries for the system's `nobody`, `daemon` and `bin`
// users and `nogroup` group (names only: nothing of theirs is touched). Every return below is
// what Salt 3006.18 gave for the same steps (salt-call --local state.single, 45 of 45 calls
// identical with the module's, /tmp/lead13/acl/cmp.py in the 13th session).
const have = which('getfacl') !== null && which('setfacl') !== null;
let dir: string;
let file: string;
let tree: string;
let ctx: ReturnType<typeof moduleCtx>;
const st = (fn: string, kw: Record<string, unknown>, test = false) => runState(acl, fn, kw, { ctx, test });
const facl = (p: string) =>
  execFileSync('getfacl', ['--omit-header', '--absolute-names', p], { encoding: 'utf8' });

beforeAll(async () => {
  if (!have) return;
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-acl-'));
  file = path.join(dir, 'f');
  tree = path.join(dir, 'd');
  await writeFile(file, '', { mode: 0o644 });
  await mkdir(path.join(tree, 'sub'), { recursive: true });
  await writeFile(path.join(tree, 'x'), '');
  ctx = moduleCtx([aclMod, cmdMod]);
});
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

describe.skipIf(!have)('acl states over real files', () => {
  it('present: a new entry, the same again, a change (the old rights as Salt spells them)', async () => {
    const entry = { name: file, acl_type: 'user', acl_name: 'nobody', perms: 'rw' };
    const added = { new: { acl_name: 'nobody', acl_type: 'user', perms: 'rw' } };
    expect(await st('present', entry, true)).toEqual({
      name: file,
      result: null,
      changes: added,
      comment: 'New permissions will be applied for nobody: rw',
    });
    expect(await st('present', entry)).toEqual({
      name: file,
      result: true,
      changes: added,
      comment: 'Applied new permissions for nobody',
    });
    expect(facl(file)).toContain('user:nobody:rw-');
    expect(await st('present', entry)).toMatchObject({
      result: true,
      changes: {},
      comment: 'Permissions are in the desired state',
    });
    // rw- is 6, which Salt's bit-by-bit lookup spells -wx
    const changes = {
      new: { acl_name: 'nobody', acl_type: 'user', perms: 'r' },
      old: { acl_name: 'nobody', acl_type: 'user', perms: '-wx' },
    };
    expect(await st('present', { ...entry, perms: 'r' }, true)).toEqual({
      name: file,
      result: null,
      changes,
      comment: 'Updated permissions will be applied for nobody: -wx -> r',
    });
    expect(await st('present', { ...entry, perms: 'r' })).toEqual({
      name: file,
      result: true,
      changes,
      comment: 'Updated permissions for nobody',
    });
    expect(facl(file)).toContain('user:nobody:r--');
  });

  it('present: a default entry, a missing type or file, a setfacl failure', async () => {
    const d = { name: tree, acl_type: 'd:user', acl_name: 'nobody', perms: 'rx' };
    expect(await st('present', d)).toMatchObject({
      result: true,
      comment: 'Applied new permissions for nobody',
    });
    expect(facl(tree)).toContain('default:user:nobody:r-x');
    expect(await st('present', d)).toMatchObject({
      result: true,
      comment: 'Permissions are in the desired state',
    });
    expect(await st('present', { ...d, name: file, acl_type: 'u' })).toMatchObject({
      result: false,
      comment: 'ACL Type does not exist',
    });
    expect(await st('present', { ...d, name: path.join(dir, 'none') })).toMatchObject({
      result: false,
      comment: `${path.join(dir, 'none')} does not exist`,
    });
    expect(
      await st('present', { name: file, acl_type: 'user', acl_name: 'nosuchuser0', perms: 'r' }),
    ).toEqual({
      name: file,
      result: false,
      changes: {},
      comment:
        'Error updating permissions for nosuchuser0: setfacl: Option -m: Invalid argument near character 3',
    });
  });

  it('present with recurse sets the whole tree; force wipes the other entries first', async () => {
    const r = { name: tree, acl_type: 'user', acl_name: 'daemon', perms: 'rwx', recurse: true };
    expect(await st('present', r)).toMatchObject({
      result: true,
      comment: 'Applied new permissions for daemon',
    });
    expect(facl(path.join(tree, 'x'))).toContain('user:daemon:rwx');
    expect(await st('present', r)).toMatchObject({ comment: 'Permissions are in the desired state' });
    await st('present', { name: file, acl_type: 'user', acl_name: 'daemon', perms: 'rwx', force: true });
    expect(facl(file)).toContain('user:daemon:rwx');
    expect(facl(file)).not.toContain('nobody');
  });

  it('absent removes the entry and, as Salt, reports no changes', async () => {
    const a = { name: file, acl_type: 'user', acl_name: 'daemon' };
    expect(await st('absent', a, true)).toEqual({
      name: file,
      result: null,
      changes: {},
      comment: 'Removing permissions',
    });
    expect(await st('absent', a)).toEqual({
      name: file,
      result: true,
      changes: {},
      comment: 'Removing permissions',
    });
    expect(facl(file)).not.toContain('daemon');
    expect(await st('absent', a)).toMatchObject({
      result: true,
      comment: 'Permissions are in the desired state',
    });
  });

  it('list_present and list_absent: several names, their comments and changes as Salt words them', async () => {
    const l = { name: file, acl_type: 'user', acl_names: ['nobody', 'daemon'], perms: 'rw' };
    expect(await st('list_present', l)).toEqual({
      name: file,
      result: true,
      changes: { new: { acl_name: 'nobody, daemon', acl_type: 'user', perms: 'rw' } },
      comment: 'Applied new permissions for nobody, daemon',
    });
    expect(await st('list_present', l)).toMatchObject({
      changes: {},
      comment: 'Permissions are in the desired state',
    });
    const changes = {
      new: { acl_name: 'nobody, daemon', acl_type: 'user', perms: 4 },
      old: { acl_name: 'nobody, daemon', acl_type: 'user', perms: '6' },
    };
    expect(await st('list_present', { ...l, perms: 'r' }, true)).toEqual({
      name: file,
      result: null,
      changes,
      comment: "Updated permissions will be applied for ['nobody', 'daemon']: 6 -> r",
    });
    expect(await st('list_present', { ...l, perms: 'r' })).toEqual({
      name: file,
      result: true,
      changes,
      comment: "Updated permissions for ['nobody', 'daemon']",
    });
    expect(facl(file)).toMatch(/user:nobody:r--/);
    expect(facl(file)).toMatch(/user:daemon:r--/);
    const gone = { name: file, acl_type: 'user', acl_names: ['nobody', 'bin'] };
    expect(await st('list_absent', gone)).toEqual({
      name: file,
      result: true,
      changes: {},
      comment: 'Removing permissions',
    });
    expect(facl(file)).not.toContain('nobody');
    expect(await st('list_absent', gone)).toMatchObject({ comment: 'Permissions are in the desired state' });
  });
});
