// cryptdev (crypttab file and cryptsetup errors), devmap, scsi, and the cryptdev, sysfs and
// blockdev states through a real masterless salt-call, on a throwaway crypttab and a loop
// device over a throwaway image (when losetup works here). Salt 3006.18 answers the same
// (measured with /tmp/blk19/cmp.mjs: 54 of 58 identical, the rest tracebacks and cmd context).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { localCaller } from '../support/local-call.js';
import { attachLoop, detachLoop, sparseImage } from '../support/loop-device.js';

const root = mkdtempSync(join(tmpdir(), 'tsalt-blk-'));
const ct = join(root, 'crypttab');
const img = join(root, 'disk.img');
const call = localCaller(root, 'blk');
const SEED =
  '# comment\ncr1 /dev/sdb1 none luks\ncr2  UUID=abc /etc/key  luks,discard\ncr3 /dev/sdc none\nbad line\n';
let loop: string | undefined;

const single = async (...args: string[]) => {
  const ret = (await call('state.single', ...args)).local as Record<string, Record<string, unknown>>;
  return Object.values(ret)[0]!;
};

beforeAll(() => {
  mkdirSync(join(root, 'srv'), { recursive: true });
  if (process.getuid?.() !== 0 || !which('losetup') || !which('mkfs.ext4')) return;
  sparseImage(img, 64);
  loop = attachLoop(img); // undefined: no loop devices in this container
});
afterAll(() => {
  if (loop) detachLoop(loop);
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => writeFileSync(ct, SEED));

describe('cryptdev module on a throwaway crypttab', () => {
  it('lists, sets and removes entries as Salt does', async () => {
    expect((await call('cryptdev.crypttab', `config=${ct}`)).local).toEqual({
      cr1: { device: '/dev/sdb1', password: 'none', options: ['luks'] },
      cr2: { device: 'UUID=abc', password: '/etc/key', options: ['luks', 'discard'] },
      cr3: { device: '/dev/sdc', password: 'none', options: [''] },
    });
    expect((await call('cryptdev.crypttab', `config=${join(root, 'none')}`)).local).toEqual({});
    expect((await call('cryptdev.set_crypttab', 'cr3', '/dev/sdc', `config=${ct}`)).local).toBe('present');
    expect(
      (await call('cryptdev.set_crypttab', 'cr2', '/dev/sdq', 'options=[a, b]', `config=${ct}`)).local,
    ).toBe('change');
    expect(readFileSync(ct, 'utf8')).toContain(
      'cr2          /dev/sdq                                     none                   a,b\n',
    );
    expect((await call('cryptdev.set_crypttab', 'n1', '/dev/x', 'test=True', `config=${ct}`)).local).toBe(
      'new',
    );
    expect(readFileSync(ct, 'utf8')).not.toContain('n1');
    expect(
      (await call('cryptdev.set_crypttab', 'cr9', '/dev/sdb1', 'match_on=device', `config=${ct}`)).local,
    ).toBe('change');
    expect((await call('cryptdev.rm_crypttab', 'cr9', `config=${ct}`)).local).toBe('change');
    expect((await call('cryptdev.rm_crypttab', 'cr9', `config=${ct}`)).local).toBe('absent');
    expect(readFileSync(ct, 'utf8')).toBe(
      '# comment\ncr3 /dev/sdc none\nbad line\n'.replace(
        'cr3',
        'cr2          /dev/sdq                                     none                   a,b\ncr3',
      ),
    );
  });
  it('refuses bad input with a clean error', async () => {
    const bad = await call('cryptdev.set_crypttab', 'x', '/dev/x', `config=${join(root, 'none')}`);
    expect(bad.code).toBe(1);
    expect(bad.output).toContain(`Bad config file "${join(root, 'none')}"`);
    const opts = await call('cryptdev.set_crypttab', 'x', '/dev/x', 'options=5', `config=${ct}`);
    expect(opts.output).toContain('options must be a string or list of strings');
    const key = await call('cryptdev.open', 'x', '/dev/null', 'none');
    expect(key.output).toContain('For immediate crypt device mapping, keyfile must not be none');
    const rm = await call('cryptdev.rm_crypttab', 'x', `config=${join(root, 'none')}`);
    expect(rm.output).toContain(
      `Could not read from ${join(root, 'none')}: [Errno 2] No such file or directory`,
    );
  });
  it('answers for devmap and scsi as Salt does', async () => {
    expect((await call('devmap.multipath_flush', join(root, 'nodev'))).local).toBe(
      `${join(root, 'nodev')} does not exist`,
    );
    expect((await call('scsi.rescan_all', '977')).local).toBe('Host 977 does not exist');
    if (!which('lsscsi'))
      expect((await call('scsi.ls')).local).toBe('scsi.ls not available - lsscsi command not found');
  });
});

describe('cryptdev, sysfs and blockdev states', () => {
  it('keeps and removes crypttab mappings', async () => {
    const add = await single('cryptdev.mapped', 'name=n1', 'device=/dev/sdz', `config=${ct}`);
    expect(add).toMatchObject({ result: true, changes: { crypttab: `Entry added in ${ct}` }, comment: '' });
    expect(readFileSync(ct, 'utf8')).toContain('n1           /dev/sdz');
    const none = await single('cryptdev.mapped', 'name=n1', 'device=/dev/sdz', 'persist=False');
    expect(none).toMatchObject({
      result: false,
      comment: 'Either persist or immediate must be set, otherwise this state does nothing',
    });
    const imm = await single(
      'cryptdev.mapped',
      'name=n1',
      'device=/dev/sdz',
      'immediate=True',
      `config=${ct}`,
    );
    expect(imm).toMatchObject({
      result: false,
      changes: { cryptsetup: 'Device cannot be mapped immediately without a keyfile' },
    });
    const gone = await single('cryptdev.unmapped', 'name=cr1', `config=${ct}`);
    expect(gone).toMatchObject({ result: true, changes: { crypttab: `Entry removed from ${ct}` } });
    expect((await single('cryptdev.unmapped', 'name=cr1', `config=${ct}`)).changes).toEqual({});
  });
  it('checks sysfs attributes', async () => {
    expect(await single('sysfs.present', 'name=kernel/blk19-nosuch', 'value=1')).toMatchObject({
      result: false,
      comment: "SysFS attribute kernel/blk19-nosuch doesn't exist.",
    });
    expect(await single('sysfs.present', 'name=kernel/mm', 'value=1')).toMatchObject({
      result: false,
      comment: 'kernel/mm is not a SysFS attribute.',
    });
    if (!existsSync('/sys/kernel/mm/transparent_hugepage/enabled')) return;
    const now = /\[(\w+)\]/.exec(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))?.[1];
    expect(
      await single('sysfs.present', 'name=kernel/mm/transparent_hugepage/enabled', `value=${now}`),
    ).toMatchObject({
      result: true,
      comment: 'SysFS attribute kernel/mm/transparent_hugepage/enabled is already set.',
    });
  });
  it('formats and tunes a loop device', async () => {
    if (!loop) return; // not root, or no loop devices here
    expect(await single('blockdev.formatted', `name=${loop}`, 'fs_type=nosuchfs')).toMatchObject({
      result: false,
      comment: 'Invalid fs_type: nosuchfs',
    });
    expect(await single('blockdev.formatted', `name=${loop}`, 'test=True')).toMatchObject({ result: null });
    expect(await single('blockdev.formatted', `name=${loop}`)).toMatchObject({
      result: true,
      comment: `${loop} has been formatted with ext4`,
      changes: { new: 'ext4', old: 'ext4' },
    });
    expect(await single('blockdev.formatted', `name=${loop}`)).toMatchObject({
      result: true,
      comment: `${loop} already formatted with ext4`,
      changes: {},
    });
    const ra = execFileSync('blockdev', ['--getra', loop], { encoding: 'utf8' }).trim();
    const want = ra === '1024' ? '512' : '1024';
    expect(await single('blockdev.tuned', `name=${loop}`, `read-ahead=${want}`)).toMatchObject({
      result: true,
      changes: { 'read-ahead': `Changed from ${ra} to ${want}` },
    });
    expect(await single('blockdev.tuned', `name=${loop}`, `read-ahead=${want}`)).toMatchObject({
      comment: `Block device ${loop} already in correct state`,
    });
    expect(await single('blockdev.tuned', `name=${ct}`, 'read-ahead=512')).toMatchObject({
      result: false,
      comment: `Changes to ${ct} cannot be applied. Not a block device.`,
    });
  });
});
