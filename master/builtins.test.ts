import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../kernel/config/resolve.js';
import { masterBuiltins } from './builtins.js';

const names = (raw: Record<string, unknown>) =>
  masterBuiltins(resolveConfig('master', raw, { label: 'test' }).config).map((p) => p.name);

describe('masterBuiltins: the REST API and its console', () => {
  it('no REST API block: neither', () => {
    expect(names({})).not.toContain('tsalt:netapi');
    expect(names({})).not.toContain('tsalt:console');
  });

  it('a REST API block brings the console, unless it says console: False', () => {
    expect(names({ rest_cherrypy: { port: 8000 } })).toEqual(
      expect.arrayContaining(['tsalt:netapi', 'tsalt:console']),
    );
    const off = names({ rest_cherrypy: { port: 8000, console: false } });
    expect(off).toContain('tsalt:netapi');
    expect(off).not.toContain('tsalt:console');
    expect(names({ rest_tornado: { port: 8000, console: false } })).not.toContain('tsalt:console');
  });
});
