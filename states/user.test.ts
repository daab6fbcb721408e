import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cmdMod from '../modules/cmd.js';
import groupMod from '../modules/group.js';
import shadowMod from '../modules/shadow.js';
import userMod from '../modules/user.js';
import { moduleCtx, runState } from './_test-ctx.js';
import group from './group.js';
import user from './user.js';

// Real accounts with throwaway names (the tests run as root); the expectations are what Salt
// 3006.18's `salt-call --local state.single user.* / group.*` returned for the same steps.
const isRoot = process.getuid?.() === 0;
const U1 = 'tsalt-t-u1';
const U2 = 'tsalt-t-u2';
const G1 = 'tsalt-t-g1';
const G2 = 'tsalt-t-g2';
const ctx = moduleCtx([cmdMod, userMod, groupMod, shadowMod], {
  grains: { shell: '/bin/sh', os_family: 'Debian', kernel: 'Linux', os: 'Debian' },
});
const st = (mod: typeof user | typeof group, fn: string, kw: Record<string, unknown>, test = false) =>
  runState(mod, fn, kw, { ctx, test });
let dir: string;

async function cleanup(): Promise<void> {
  for (const u of [U1, U2]) await st(user, 'absent', { name: u, purge: true });
  for (const g of [G1, G2, U1, U2]) await st(group, 'absent', { name: g });
  // the first home stays behind when the home moves without persist_home, as with Salt
  await rm(`/home/${U1}`, { recursive: true, force: true });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-user-'));
  if (isRoot) await cleanup();
});
afterAll(async () => {
  if (isRoot) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!isRoot)('group.present / group.absent', () => {
  it('creates, keeps, predicts and changes a group', async () => {
    const made = await st(group, 'present', { name: G1 });
    expect(made).toMatchObject({ name: G1, result: true, comment: `New group ${G1} created` });
    expect(made.changes).toEqual({ gid: expect.any(Number), members: [], name: G1, passwd: 'x' });
    expect(await st(group, 'present', { name: G1 })).toEqual({
      name: G1,
      changes: {},
      result: true,
      comment: `Group ${G1} is present and up to date`,
    });
    expect(await st(group, 'present', { name: G2, gid: 23456 }, true)).toEqual({
      name: G2,
      changes: {},
      result: null,
      comment: `Group ${G2} set to be added`,
    });
    expect((await st(group, 'present', { name: G2, gid: 23456 })).changes).toEqual({
      gid: 23456,
      members: [],
      name: G2,
      passwd: 'x',
    });
    expect(await st(group, 'present', { name: G2, gid: 23457 })).toEqual({
      name: G2,
      changes: { Final: 'All changes applied successfully' },
      result: true,
      comment: 'The following group attributes are set to be changed:\ngid: 23457\n',
    });
    expect(await st(group, 'present', { name: 'tsalt-t-g9', gid: 23457 })).toEqual({
      name: 'tsalt-t-g9',
      changes: {},
      result: false,
      comment: `Group tsalt-t-g9 is not present but gid 23457 is already taken by group ${G2}`,
    });
  });
});

describe.skipIf(!isRoot)('user.present / user.absent', () => {
  it('predicts, creates and keeps a user', async () => {
    expect(await st(user, 'present', { name: U1 }, true)).toEqual({
      name: U1,
      changes: {},
      result: null,
      comment: `User ${U1} set to be added`,
    });
    const made = await st(user, 'present', { name: U1 });
    expect(made).toMatchObject({ name: U1, result: true, comment: `New user ${U1} created` });
    expect(made.changes).toEqual({
      fullname: '',
      gid: expect.any(Number),
      groups: [U1],
      home: `/home/${U1}`,
      homephone: '',
      name: U1,
      other: '',
      passwd: 'x',
      roomnumber: '',
      shell: '/bin/sh',
      uid: expect.any(Number),
      workphone: '',
    });
    expect(existsSync(`/home/${U1}`)).toBe(true);
    expect(await st(user, 'present', { name: U1 })).toEqual({
      name: U1,
      changes: {},
      result: true,
      comment: `User ${U1} is present and up to date`,
    });
  });

  it('updates shell, fullname and groups, with Salt’s test=True comment first', async () => {
    const want = { name: U1, shell: '/bin/bash', fullname: 'Test One', groups: [G1] };
    expect(await st(user, 'present', want, true)).toEqual({
      name: U1,
      changes: {},
      result: null,
      comment: `The following user attributes are set to be changed:\ngroups: ['${G1}']\nshell: /bin/bash\nfullname: Test One\n`,
    });
    expect(await st(user, 'present', want)).toEqual({
      name: U1,
      changes: { fullname: 'Test One', groups: [G1, U1], shell: '/bin/bash' },
      result: true,
      comment: `Updated user ${U1}`,
    });
    expect((await st(user, 'present', want)).comment).toBe(`User ${U1} is present and up to date`);
  });

  it('refuses missing groups, commas in GECOS fields and a uid change not allowed', async () => {
    expect(await st(user, 'present', { name: U1, groups: ['nosuchgrp-x'] })).toEqual({
      name: U1,
      changes: {},
      result: false,
      comment: 'The following group(s) are not present: nosuchgrp-x',
    });
    expect((await st(user, 'present', { name: 'tsalt-t-u3', fullname: 'a,b' })).comment).toBe(
      "Unsupported char ',' in a,b",
    );
    const uid = (await ctx.call('user.info', [U1])) as { uid: number };
    expect(await st(user, 'present', { name: U1, uid: 23999 })).toEqual({
      name: U1,
      changes: {},
      result: false,
      comment: `Encountered error checking for needed changes. Additional info follows:\n\n- Changing uid (${uid.uid} -> 23999) not permitted, set allow_uid_change to True to force this change. Note that this will not change file ownership.`,
    });
  });

  it('adds optional groups without removing, sets a password hash and a home', async () => {
    await st(group, 'present', { name: G2 });
    expect(
      await st(user, 'present', { name: U1, optional_groups: [G2, 'tsalt-t-nope'], remove_groups: false }),
    ).toEqual({ name: U1, changes: { groups: [G1, G2, U1] }, result: true, comment: `Updated user ${U1}` });
    expect(await st(user, 'present', { name: U1, password: '$6$abc$xyz' })).toEqual({
      name: U1,
      changes: { passwd: 'XXX-REDACTED-XXX' },
      result: true,
      comment: `Updated user ${U1}`,
    });
    expect((await ctx.call('shadow.info', [U1])) as { passwd: string }).toMatchObject({
      passwd: '$6$abc$xyz',
    });
    const home = path.join(dir, 'h1');
    expect(await st(user, 'present', { name: U1, home })).toEqual({
      name: U1,
      changes: { home },
      result: true,
      comment: `Updated user ${U1}`,
    });
    expect(existsSync(home)).toBe(true);
  });

  it('creates a system user with uid, gid, no home and a password', async () => {
    const r = await st(user, 'present', {
      name: U2,
      uid: 23998,
      gid: G2,
      home: path.join(dir, 'h2'),
      createhome: false,
      system: true,
      fullname: 'U Two',
      password: '$6$abc$xyz',
    });
    expect(r).toMatchObject({ result: true, comment: `New user ${U2} created` });
    expect(r.changes).toEqual({
      fullname: 'U Two',
      gid: expect.any(Number),
      groups: [G2],
      home: '',
      homephone: '',
      name: U2,
      other: '',
      passwd: 'x',
      password: 'XXX-REDACTED-XXX',
      roomnumber: '',
      shell: '/bin/sh',
      uid: 23998,
      workphone: '',
    });
  });

  it('group members, addusers and delusers', async () => {
    expect(await st(group, 'present', { name: G1, members: [U2] }, true)).toEqual({
      name: G1,
      changes: {},
      result: null,
      comment: `The following group attributes are set to be changed:\nmembers: ['${U2}']\n`,
    });
    expect((await st(group, 'present', { name: G1, members: [U2] })).changes).toEqual({
      Final: 'All changes applied successfully',
    });
    expect(await st(group, 'present', { name: G1, addusers: [U1], delusers: [U2] })).toEqual({
      name: G1,
      changes: { Final: 'All changes applied successfully' },
      result: true,
      comment: `The following group attributes are set to be changed:\naddusers: ['${U1}']\ndelusers: ['${U2}']\n`,
    });
    expect(((await ctx.call('group.info', [G1])) as { members: string[] }).members).toEqual([U1]);
  });

  it('removes users (and the user group with them) and groups', async () => {
    expect(await st(user, 'absent', { name: U1 }, true)).toEqual({
      name: U1,
      changes: {},
      result: null,
      comment: `User ${U1} set for removal`,
    });
    expect(await st(user, 'absent', { name: U1, purge: true })).toEqual({
      name: U1,
      changes: { [U1]: 'removed', [`${U1} group`]: 'removed' },
      result: true,
      comment: `Removed user ${U1}`,
    });
    expect(await st(user, 'absent', { name: U1 })).toEqual({
      name: U1,
      changes: {},
      result: true,
      comment: `User ${U1} is not present`,
    });
    expect(await st(user, 'absent', { name: U2 })).toMatchObject({ changes: { [U2]: 'removed' } });
    expect(await st(group, 'absent', { name: G1 }, true)).toEqual({
      name: G1,
      changes: {},
      result: null,
      comment: `Group ${G1} is set for removal`,
    });
    expect(await st(group, 'absent', { name: G1 })).toEqual({
      name: G1,
      changes: { [G1]: '' },
      result: true,
      comment: `Removed group ${G1}`,
    });
    expect(await st(group, 'absent', { name: G1 })).toEqual({
      name: G1,
      changes: {},
      result: true,
      comment: 'Group not present',
    });
  });
});
