// Template inheritance through the loader salt:// files use: errors name the file and line they
// are in (a child's block, the base template), the chain of extends, and the bounds still hold.
import { describe, expect, it } from 'vitest';
import { saltFunctionsFrom } from '../salt-functions.js';
import type { RenderContext } from '../types.js';
import { renderJinja } from './renderer.js';

function contextWith(files: Record<string, string>): RenderContext {
  return {
    grains: { os: 'Debian' },
    pillar: {},
    opts: {},
    saltenv: 'base',
    salt: saltFunctionsFrom({}),
    loadFile: async (name) =>
      Object.hasOwn(files, name) ? { source: files[name] as string, path: name } : undefined,
  };
}

async function failure(source: string, files: Record<string, string>) {
  try {
    await renderJinja(source, contextWith(files), { path: 'web/site.conf' });
  } catch (err) {
    return err as Error & { code: string; details: { line: number; file: string; chain: string[] } };
  }
  throw new Error('expected the render to fail');
}

const BASE = 'server {\n{% block body %}{% endblock %}\n  os {{ grains.os }}\n}\n';

describe('extends and blocks', () => {
  it('a child fills the base through salt:// and relative names, and super() reaches the base', async () => {
    const files = {
      'web/base.conf': BASE.replace('{% endblock %}', '  base;\n{% endblock %}'),
      'web/mid.conf': "{% extends './base.conf' %}{% block body %}{{ super() }}  mid;\n{% endblock %}",
    };
    const out = await renderJinja(
      "{% extends 'web/mid.conf' %}{% block body %}{{ super() }}  child;\n{% endblock %}",
      contextWith(files),
      { path: 'web/site.conf' },
    );
    expect(out).toBe('server {\n  base;\n  mid;\n  child;\n\n  os Debian\n}');
  });

  it("an error in a child's block names the child's file and line", async () => {
    const err = await failure(
      "{% extends 'web/base.conf' %}\n{% block body %}\n  {{ grains.nope }}\n{% endblock %}",
      {
        'web/base.conf': BASE,
      },
    );
    expect(err.code).toBe('SALT_ERR_RENDER_FAILED');
    expect(err.details).toMatchObject({ file: 'web/site.conf', line: 3 });
    expect(err.message).toContain("Jinja variable 'dict object' has no attribute 'nope'");
  });

  it('an error in the base names the base and the extends that led there', async () => {
    const err = await failure("{% extends 'web/base.conf' %}", {
      'web/base.conf': 'a\n{{ missing }}\n',
    });
    expect(err.details).toMatchObject({ file: 'web/base.conf', line: 2 });
    expect(err.details.chain).toEqual(['web/site.conf, line 1']);
    expect(err.message).toMatch(/'missing' is undefined/);
  });

  it('a required block left empty, a missing parent, a block defined twice and two extends are errors', async () => {
    const req = await failure("{% extends 'b' %}", { b: '{% block x required %}{% endblock %}' });
    expect(req.message).toMatch(/Required block 'x' not found/);
    expect((await failure("{% extends 'none.conf' %}", {})).code).toBe('SALT_ERR_RENDER_MISSING');
    const twice = await failure('{% block a %}{% endblock %}\n{% block a %}{% endblock %}', {});
    expect(twice.code).toBe('SALT_ERR_RENDER_SYNTAX');
    expect(twice.message).toMatch(/line 2, column 1: Jinja syntax error: block 'a' defined twice/);
    const again = await failure("{% extends 'b' %}{% extends 'b' %}", { b: 'x' });
    expect(again.message).toMatch(/extended multiple times/);
  });

  it('a template that extends itself stops at the depth bound', async () => {
    const err = await failure("{% extends 'web/site.conf' %}", {
      'web/site.conf': "{% extends 'web/site.conf' %}",
    });
    expect(err.code).toBe('SALT_ERR_RENDER_LIMIT');
  });
});
