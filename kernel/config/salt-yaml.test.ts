import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SALT_ERR_CONFIG_LOAD, type SaltError } from '../errors.js';
import { asConfigObject, parseSaltYaml, readJsonFile, readSaltYamlFile } from './salt-yaml.js';

describe('parseSaltYaml (PyYAML 1.1 + SaltYamlSafeLoader)', () => {
  it('reads YAML 1.1 booleans as PyYAML does', async () => {
    const data = await parseSaltYaml('a: yes\nb: no\nc: on\nd: Off\ne: True\nf: FALSE\ng: "yes"\n');
    expect(data).toEqual({ a: true, b: false, c: true, d: false, e: true, f: false, g: 'yes' });
  });

  it('keeps y/n as strings, unlike the YAML 1.1 spec but like PyYAML', async () => {
    expect(await parseSaltYaml('y: n\nY: N\n')).toEqual({ y: 'n', Y: 'N' });
  });

  it('keeps timestamps as strings and reads zero-padded integers as decimal', async () => {
    const data = await parseSaltYaml('when: 2024-01-02\nmode: 0755\nhex: 0x1f\nzero: 0\nsigned: -010\n');
    expect(data).toEqual({ when: '2024-01-02', mode: 755, hex: 31, zero: 0, signed: -8 });
  });

  it('reads numbers as PyYAML does', async () => {
    const data = await parseSaltYaml(
      'a: 1e3\nb: 1.5e+3\nc: 08\nd: 1:30\ne: 1_000\nf: .5\ng: -.inf\nh: 0b101\ni: 190:20:30.15\n',
    );
    expect(data).toEqual({
      a: '1e3',
      b: 1500,
      c: '08',
      d: 90,
      e: 1000,
      f: 0.5,
      g: -Infinity,
      h: 5,
      i: 685230.15,
    });
  });

  it('returns {} for an empty or comment-only file', async () => {
    expect(await parseSaltYaml('')).toEqual({});
    expect(await parseSaltYaml('# all commented out\n#interface: 0.0.0.0\n')).toEqual({});
  });

  it('rejects duplicate keys, as Salt does', async () => {
    await expect(parseSaltYaml('a: 1\na: 2\n')).rejects.toThrow(/unique/);
  });

  it('rejects documents that are not mappings', async () => {
    await expect(parseSaltYaml('- a\n- b\n')).rejects.toThrow('not a list');
    await expect(parseSaltYaml('just a string\n')).rejects.toThrow('not a string');
  });
});

describe('asConfigObject', () => {
  it('turns a numeric id into a string', () => {
    expect(asConfigObject({ id: 1234 })).toEqual({ id: '1234' });
  });
});

describe('reading files', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('wraps parse errors in SALT_ERR_CONFIG_LOAD with the path and cause', async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsalt-yaml-'));
    const file = join(dir, 'master');
    await writeFile(file, 'interface: [127.0.0.1\nret_port: 4506\n');
    const error = (await readSaltYamlFile(file).catch((e: unknown) => e)) as SaltError;
    expect(error).toBeInstanceOf(SALT_ERR_CONFIG_LOAD);
    expect(error.code).toBe('SALT_ERR_CONFIG_LOAD');
    expect(error.message).toBe(`failed to load config from ${file}`);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('reads JSON and wraps its errors too', async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsalt-yaml-'));
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    await writeFile(good, '{"ret_port": 4510}');
    await writeFile(bad, '{"ret_port": ');
    expect(await readJsonFile(good)).toEqual({ ret_port: 4510 });
    await expect(readJsonFile(bad)).rejects.toBeInstanceOf(SALT_ERR_CONFIG_LOAD);
  });
});
