import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { definePluginFactory } from './plugin-factory.js';

describe('definePluginFactory', () => {
  const acme = definePluginFactory(
    'tsalt-plugin-acme',
    z.object({ url: z.url(), retries: z.number().int().min(0).default(3) }),
    (opts) => ({ name: 'tsalt-plugin-acme', apply: () => void opts }),
  );

  it('builds the plugin from valid options, with defaults applied', () => {
    let seen: unknown;
    const f = definePluginFactory('p', z.object({ n: z.number().default(1) }), (o) => {
      seen = o;
      return { name: 'p', apply() {} };
    });
    expect(f().name).toBe('p');
    expect(seen).toEqual({ n: 1 });
    expect(acme({ url: 'https://acme.example' }).name).toBe('tsalt-plugin-acme');
  });

  it('refuses bad options naming the plugin and each option', () => {
    expect(() => acme({ url: 'not a url', retries: -1 })).toThrow(
      expect.objectContaining({
        code: 'SALT_ERR_PLUGIN_OPTIONS',
        message: expect.stringMatching(
          /^invalid options for plugin "tsalt-plugin-acme": url: .+; retries: .+/,
        ),
      }),
    );
  });
});
