import { describe, expect, it } from 'vitest';
import { defineOptions } from './option-set.js';
import { resolveConfig } from './resolve.js';
import { intOption, stringListOption } from './schema-common.js';

const set = defineOptions('master', {
  test_opt_interval: intOption(60, 'Seconds between refreshes.', { min: 1 }),
  test_opt_remotes: stringListOption('Remotes.'),
});

describe('plugin option sets', () => {
  it('reads defaults, coerces as the loader does, and caches per config', () => {
    const config = { extra: { test_opt_interval: '15' } };
    expect(set.read(config)).toEqual({ test_opt_interval: 15, test_opt_remotes: [] });
    expect(set.read(config)).toBe(set.read(config));
  });

  it('refuses a bad value with the option named', () => {
    const bad = { extra: { test_opt_interval: 0 }, conf_file: '/etc/salt/master' };
    expect(() => set.read(bad)).toThrow(expect.objectContaining({ code: 'SALT_ERR_CONFIG_INVALID' }));
    expect(() => set.read(bad)).toThrow(/\/etc\/salt\/master[\s\S]*test_opt_interval/);
  });

  it('keeps declared options in extra without the unknown-option warning', () => {
    const { config, warnings } = resolveConfig(
      'master',
      { test_opt_interval: 5, test_opt_typo: 1 },
      { label: 't' },
    );
    expect(config.extra).toEqual({ test_opt_interval: 5, test_opt_typo: 1 });
    expect(warnings.join('\n')).not.toContain('"test_opt_interval"');
    expect(warnings.join('\n')).toContain('"test_opt_typo"');
  });

  it('refuses a second declaration of the same option', () => {
    expect(() => defineOptions('minion', { test_opt_interval: intOption(1, 'again') })).toThrow(
      /declared twice/,
    );
  });
});
