import { describe, expect, it } from 'vitest';
import { checkPkgVersionFormat } from './_pip-req.js';

describe("pip.installed's reading of a package line", () => {
  it('names the project and its specifiers', () => {
    expect(checkPkgVersionFormat('Foo_Bar[extra] >=1.0, <2 ; python_version > "3"')).toEqual({
      result: true,
      prefix: 'Foo-Bar',
      version_spec: [
        ['>=', '1.0'],
        ['<', '2'],
      ],
    });
    expect(checkPkgVersionFormat('requests')).toEqual({ result: true, prefix: 'requests', version_spec: [] });
  });

  it('a link has a name only with #egg=, a wheel file names itself', () => {
    expect(checkPkgVersionFormat('git+https://x.org/r.git#egg=my_pkg')).toMatchObject({ prefix: 'my-pkg' });
    expect(checkPkgVersionFormat('https://x.org/p-1.0.tar.gz')).toMatchObject({
      prefix: '',
      version_spec: [],
    });
    expect(checkPkgVersionFormat('/srv/w/tsalt_fixture-1.0-py3-none-any.whl')).toMatchObject({
      prefix: 'tsalt-fixture',
      version_spec: [['==', '1.0']],
    });
  });

  it("refuses '=' with Salt's words, and what pip cannot parse", () => {
    expect(checkPkgVersionFormat('foo=1.0')).toEqual({
      result: false,
      comment: "Invalid version specification in package foo=1.0. '=' is not supported, use '==' instead.",
    });
    expect(checkPkgVersionFormat('foo bar')).toMatchObject({ result: false });
  });
});
