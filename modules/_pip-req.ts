/**
 * The `pip.installed` state's reading of one package line (Salt's `_check_pkg_version_format`
 * over pip's own parser): the project name it checks in `pip.list` (Salt's `prefix`: runs of
 * characters other than letters, digits and dots made `-`) and the version specifiers; a URL,
 * VCS link or path without `#egg=` has no name (it is installed every time), a wheel file
 * names itself.
 */

export type VersionSpec = Array<[string, string]>;

export type ReqCheck =
  | { result: true; prefix: string; version_spec: VersionSpec }
  | { result: false; comment: string };

const safeName = (n: string) => n.replace(/[^A-Za-z0-9.]+/g, '-');
const NAME = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*(.*?)\s*(?:;.*)?$/s;
const SPEC = /^\s*(~=|===|==|!=|<=|>=|<|>)\s*([^\s,;()]+)\s*$/;

function located(pkg: string): ReqCheck {
  const egg = /#egg=([^&]+)/.exec(pkg)?.[1];
  if (egg) return { result: true, prefix: safeName(egg), version_spec: [] };
  const wheel = /(?:^|\/)([^/-]+)-([^/-]+)(?:-[^/-]+){2,3}\.whl$/.exec(pkg);
  if (wheel)
    return { result: true, prefix: safeName(wheel[1] as string), version_spec: [['==', wheel[2] as string]] };
  return { result: true, prefix: '', version_spec: [] };
}

/** What Salt's `_check_pkg_version_format` answers for `pkg`. */
export function checkPkgVersionFormat(pkg: string): ReqCheck {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pkg) || /^(git|hg|svn|bzr)\+/.test(pkg) || /^[./~]/.test(pkg)) {
    return located(pkg);
  }
  const m = NAME.exec(pkg);
  const specs: VersionSpec = [];
  let ok = m !== null;
  if (m && m[2] !== '') {
    const body = (m[2] as string).replace(/^\((.*)\)$/s, '$1');
    for (const part of body.split(',')) {
      const s = SPEC.exec(part);
      if (!s) {
        ok = false;
        break;
      }
      specs.push([s[1] as string, s[2] as string]);
    }
  }
  if (!ok || !m) {
    if (pkg.includes('=') && !pkg.includes('=='))
      return {
        result: false,
        comment: `Invalid version specification in package ${pkg}. '=' is not supported, use '==' instead.`,
      };
    return {
      result: false,
      comment: `pip raised an exception while parsing '${pkg}': Invalid requirement: '${pkg}'`,
    };
  }
  return { result: true, prefix: safeName(m[1] as string), version_spec: specs };
}
