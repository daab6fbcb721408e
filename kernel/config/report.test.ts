import { describe, expect, it } from 'vitest';
import { formatPath, suggestOption, unknownOptionWarning } from './report.js';

describe('formatPath', () => {
  it('writes keys, indices and odd keys readably', () => {
    expect(formatPath(['ret_port'])).toBe('ret_port');
    expect(formatPath(['module_dirs', 1])).toBe('module_dirs[1]');
    expect(formatPath(['reactor', 0, 'salt/auth'])).toBe('reactor[0]["salt/auth"]');
    expect(formatPath(['nodegroups', 'web'])).toBe('nodegroups.web');
    expect(formatPath([])).toBe('(root)');
  });
});

describe('suggestOption', () => {
  const known = ['ret_port', 'publish_port', 'worker_threads', 'timeout', 'id'];
  it('suggests close names only', () => {
    expect(suggestOption('ret_prot', known)).toBe('ret_port');
    expect(suggestOption('worker_thread', known)).toBe('worker_threads');
    expect(suggestOption('file_roots', known)).toBeUndefined();
    expect(suggestOption('ix', known)).toBe('id');
  });

  it('builds the warning text', () => {
    expect(unknownOptionWarning('timout', known, '/c/master.d/a.conf')).toBe(
      'unknown option "timout" (set in /c/master.d/a.conf): tsalt does not use it, it is kept in config.extra; did you mean "timeout"?',
    );
  });
});
