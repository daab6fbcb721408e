import { describe, expect, it } from 'vitest';
import { invoke } from './_fake-ctx.js';
import saltVersion from './salt_version.js';

const call = async (fun: string, arg: unknown[]) => (await invoke(saltVersion, fun, arg)).value;

// Answers as salt-call --local of Salt 3006.18 gave them.
describe('salt_version', () => {
  it('maps code names to release numbers', async () => {
    expect(await call('get_release_number', ['Sulfur'])).toBe('3006');
    expect(await call('get_release_number', ['hydrogen'])).toBe('2014.1');
    expect(await call('get_release_number', ['Oganesson'])).toBe('3108');
    expect(await call('get_release_number', ['nope'])).toBeNull();
    await expect(call('get_release_number', [3000])).rejects.toThrow("'name' argument must be a string");
  });

  it('compares the Salt release tsalt speaks for (3006) with a named one', async () => {
    expect(await call('equal', ['sulfur'])).toBe(true);
    expect(await call('equal', ['Neon'])).toBe(false);
    expect(await call('greater_than', ['Phosphorus'])).toBe(true);
    expect(await call('greater_than', ['fluorine'])).toBe(true);
    expect(await call('greater_than', ['Chlorine'])).toBe(false);
    expect(await call('less_than', ['Chlorine'])).toBe(true);
    expect(await call('less_than', ['nope'])).toBe(false);
  });
});
