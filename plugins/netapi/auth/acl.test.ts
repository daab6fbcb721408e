import { describe, expect, it } from 'vitest';
import { globToRegExp } from '../../../kernel/targeting/glob.js';
import {
  argsCheck,
  authCheck,
  authDecide,
  CHECK_SYNTAX_ERROR,
  exprMatch,
  fillAuthList,
  funCheck,
  matchCheck,
  permsForLogin,
  specCheck,
  type TargetResolver,
  userListed,
} from './acl.js';

const MINIONS = ['web1', 'web2', 'db1', 'db2'];

/** A resolver over a fixed minion list: glob, list and a tiny compound (`L@a,b` or a glob). */
const resolve: TargetResolver = async (tgt, tgtType) => {
  if (tgtType === 'list') {
    const ids = Array.isArray(tgt) ? tgt.map(String) : String(tgt).split(',');
    return new Set(MINIONS.filter((m) => ids.includes(m)));
  }
  if (typeof tgt !== 'string') throw new Error('bad target');
  if (tgt === 'boom') throw new Error('cannot resolve');
  if (tgtType === 'compound' && tgt.startsWith('L@')) {
    const ids = tgt.slice(2).split(',');
    return new Set(MINIONS.filter((m) => ids.includes(m)));
  }
  if (tgtType === 'glob' || tgtType === 'compound') {
    const re = globToRegExp(tgt);
    return new Set(MINIONS.filter((m) => re.test(m)));
  }
  throw new Error(`unsupported ${tgtType}`);
};

describe('matchCheck (Python re.match)', () => {
  it('anchors at the start only', () => {
    expect(matchCheck('test.*', 'test.ping')).toBe(true);
    expect(matchCheck('test', 'testing.ping')).toBe(true);
    expect(matchCheck('ping', 'test.ping')).toBe(false);
    expect(matchCheck('.*', 'anything.at_all')).toBe(true);
  });
  it('needs every function of a list and is false for an empty list', () => {
    expect(matchCheck('test\\..*', ['test.ping', 'test.echo'])).toBe(true);
    expect(matchCheck('test\\..*', ['test.ping', 'cmd.run'])).toBe(false);
    expect(matchCheck('.*', [])).toBe(false);
  });
  it('treats an invalid regex or a non-string as no match', () => {
    expect(matchCheck('test.(', 'test.ping')).toBe(false);
    expect(matchCheck(42, 'test.ping')).toBe(false);
  });
  it('understands Python-only syntax', () => {
    expect(matchCheck('(?P<m>test)\\.(?P=m)', 'test.test')).toBe(true);
    expect(matchCheck('\\Atest\\.ping\\Z', 'test.ping')).toBe(true);
    expect(matchCheck('\\Atest\\.ping\\Z', 'test.pingx')).toBe(false);
  });
});

describe('exprMatch (user names)', () => {
  it('matches equal, glob and whole-line regex', () => {
    expect(exprMatch('saltdev', 'saltdev')).toBe(true);
    expect(exprMatch('salt*', 'saltdev')).toBe(true);
    expect(exprMatch('salt.ev', 'saltdev')).toBe(true);
    expect(exprMatch('salt', 'saltdev')).toBe(false);
    expect(exprMatch('[', 'x')).toBe(false);
  });
});

describe('fillAuthList', () => {
  const provider = {
    '^filename': '/etc/users.txt',
    saltdev: ['.*', '@runner'],
    'dev*': ['test.*'],
    'admins%': ['@wheel'],
    '*': ['test.ping'],
  };
  it('collects the entries of the user, its globs and its groups', () => {
    expect(fillAuthList(provider, 'saltdev', [])).toEqual(['.*', '@runner']);
    expect(fillAuthList(provider, 'devon', ['admins'])).toEqual(['test.*', '@wheel']);
  });
  it('falls back to `*` only when nothing else named the user', () => {
    expect(fillAuthList(provider, 'stranger', [])).toEqual(['test.ping']);
    expect(fillAuthList(provider, 'stranger', ['admins'])).toEqual(['@wheel', 'test.ping']);
    expect(fillAuthList(provider, 'saltdev', [], true)).toEqual(['.*', '@runner', 'test.ping']);
  });
  it('never treats ^options as users', () => {
    expect(fillAuthList({ '^filename': ['x'] }, '^filename', [])).toEqual([]);
  });
  it('accepts a single entry that is not a list', () => {
    expect(fillAuthList({ u: '.*' }, 'u', [])).toEqual(['.*']);
  });
  it('userListed: by name, glob, group or *', () => {
    expect(userListed({ saltdev: [] }, 'saltdev', [])).toBe(true);
    expect(userListed({ saltdev: [] }, 'other', [])).toBe(false);
    expect(userListed({ 'ops%': [] }, 'other', ['ops'])).toBe(true);
    expect(userListed({ '*': [] }, 'other', [])).toBe(true);
    expect(userListed({ '^filename': 'x' }, '^filename', [])).toBe(false);
  });
});

describe('argsCheck and funCheck', () => {
  it('matches positional args by regex, null meaning any', () => {
    expect(argsCheck({ args: ['ls.*'] }, ['ls -l'], undefined)).toBe(true);
    expect(argsCheck({ args: ['ls.*'] }, ['rm -rf /'], undefined)).toBe(false);
    expect(argsCheck({ args: [null, 'b'] }, ['anything', 'b'], undefined)).toBe(true);
    expect(argsCheck({ args: ['a', 'b'] }, ['a'], undefined)).toBe(false);
  });
  it('matches keyword args and needs them present', () => {
    expect(argsCheck({ kwargs: { cwd: '/tmp.*' } }, [], { cwd: '/tmp/x' })).toBe(true);
    expect(argsCheck({ kwargs: { cwd: '/tmp.*' } }, [], { cwd: '/etc' })).toBe(false);
    expect(argsCheck({ kwargs: { cwd: '/tmp.*' } }, [], undefined)).toBe(false);
    expect(argsCheck({ kwargs: { cwd: null } }, [], { cwd: 1 })).toBe(true);
  });
  it('compares non-strings as Python prints them', () => {
    expect(argsCheck({ args: ['True'] }, [true], undefined)).toBe(true);
    expect(argsCheck({ args: ['4\\d'] }, [42], undefined)).toBe(true);
  });
  it('accepts a list of alternatives and skips malformed ones', () => {
    expect(argsCheck(['junk', { args: ['x'] }, { args: ['y'] }], ['y'], undefined)).toBe(true);
    expect(argsCheck([{ args: 'notalist' }], ['y'], undefined)).toBe(false);
  });
  it('funCheck: names and {name: args} forms', () => {
    expect(funCheck(['test.*', 'cmd.run'], 'cmd.run')).toBe(true);
    expect(funCheck({ 'cmd.run': { args: ['ls.*'] } }, 'cmd.run', ['ls'], undefined)).toBe(true);
    expect(funCheck({ 'cmd.run': { args: ['ls.*'] } }, 'cmd.run', ['rm'], undefined)).toBe(false);
    expect(funCheck([{ a: 1, b: 2 }], 'a')).toBe(false);
  });
});

describe('authCheck', () => {
  it('allows a function regex on any target', async () => {
    expect(await authCheck(['test.*'], 'test.ping', [], '*', 'glob', resolve)).toBe(true);
    expect(await authCheck(['test.*'], 'cmd.run', ['ls'], '*', 'glob', resolve)).toBe(false);
  });
  it('never lets @ entries allow execution modules', async () => {
    expect(await authCheck(['@runner', '@wheel'], 'test.ping', [], '*', 'glob', resolve)).toBe(false);
  });
  it('restricts target entries to the minions they match', async () => {
    const acl = [{ 'web*': ['test.*', 'cmd.run'] }];
    expect(await authCheck(acl, 'cmd.run', ['ls'], 'web1', 'glob', resolve)).toBe(true);
    expect(await authCheck(acl, 'cmd.run', ['ls'], 'web*', 'glob', resolve)).toBe(true);
    expect(await authCheck(acl, 'cmd.run', ['ls'], '*', 'glob', resolve)).toBe(false);
    expect(await authCheck(acl, 'cmd.run', ['ls'], ['web1', 'db1'], 'list', resolve)).toBe(false);
    expect(await authCheck(acl, 'pkg.install', ['x'], 'web1', 'glob', resolve)).toBe(false);
  });
  it('checks arguments inside target entries', async () => {
    const acl = [{ '*': [{ 'cmd.run': { args: ['ls.*'] } }] }];
    expect(await authCheck(acl, 'cmd.run', ['ls -l'], '*', 'glob', resolve)).toBe(true);
    expect(await authCheck(acl, 'cmd.run', ['rm -rf /'], '*', 'glob', resolve)).toBe(false);
    const kw = [{ '*': [{ 'cmd.run': { kwargs: { cwd: '/tmp' } } }] }];
    expect(
      await authCheck(kw, 'cmd.run', ['ls', { __kwarg__: true, cwd: '/tmp' }], '*', 'glob', resolve),
    ).toBe(true);
    expect(
      await authCheck(kw, 'cmd.run', ['ls', { __kwarg__: true, cwd: '/etc' }], '*', 'glob', resolve),
    ).toBe(false);
  });
  it('checks the arguments as the minion parses them: k=v words and __kwarg__ maps anywhere are keywords', async () => {
    const acl = [{ '*': [{ 'cmd.run': { args: ['ls.*'] } }] }];
    // issue 27 item 9: `ls=1` is a keyword on the minion, so `id -u` is what cmd.run runs
    expect(await authCheck(acl, 'cmd.run', ['ls=1', 'id -u'], '*', 'glob', resolve)).toBe(false);
    expect(await authCheck(acl, 'cmd.run', [{ __kwarg__: true, ls: 1 }, 'id -u'], '*', 'glob', resolve)).toBe(
      false,
    );
    expect(await authCheck(acl, 'cmd.run', ['ls -l', 'cwd=/tmp'], '*', 'glob', resolve)).toBe(true);
    // a map without the marker stays positional, as on the minion
    expect(await authCheck(acl, 'cmd.run', [{ ls: 1 }, 'id -u'], '*', 'glob', resolve)).toBe(false);
    const kw = [{ '*': [{ 'cmd.run': { kwargs: { cwd: '/tmp' } } }] }];
    expect(await authCheck(kw, 'cmd.run', ['ls', 'cwd=/tmp'], '*', 'glob', resolve)).toBe(true);
    expect(await authCheck(kw, 'cmd.run', ['ls', 'cwd=/tmp', 'cwd=/etc'], '*', 'glob', resolve)).toBe(false);
    expect(
      await authCheck(
        kw,
        'cmd.run',
        [{ __kwarg__: true, cwd: '/tmp' }, 'ls', 'cwd=/etc'],
        '*',
        'glob',
        resolve,
      ),
    ).toBe(false);
    // compound calls: each function's own list, parsed the same way
    expect(
      await authCheck(acl, ['cmd.run', 'cmd.run'], [['ls'], ['ls=1', 'id -u']], '*', 'glob', resolve),
    ).toBe(false);
  });
  it('needs every function of a compound call allowed (stricter than Salt)', async () => {
    expect(await authCheck(['test.*'], ['test.ping', 'cmd.run'], [[], ['ls']], '*', 'glob', resolve)).toBe(
      false,
    );
    expect(await authCheck(['test.*'], ['test.ping', 'test.echo'], [[], ['x']], '*', 'glob', resolve)).toBe(
      true,
    );
  });
  it('denies on any error: unresolvable targets, bad entries, empty lists', async () => {
    const acl = [{ 'web*': ['.*'] }];
    expect(await authCheck(acl, 'test.ping', [], 'boom', 'glob', resolve)).toBe(false);
    expect(await authCheck([{ boom: ['.*'] }], 'test.ping', [], 'web1', 'glob', resolve)).toBe(false);
    expect(await authCheck([{ a: ['.*'], b: ['.*'] }], 'test.ping', [], 'web1', 'glob', resolve)).toBe(false);
    expect(await authCheck([], 'test.ping', [], '*', 'glob', resolve)).toBe(false);
    expect(await authCheck(['.*'], [], [], '*', 'glob', resolve)).toBe(false);
    expect(await authCheck([42, null, ['x']], 'test.ping', [], '*', 'glob', resolve)).toBe(false);
  });
  it('a target entry with a compound list key', async () => {
    const acl = [{ 'L@db1,db2': ['pkg.*'] }];
    expect(await authCheck(acl, 'pkg.install', [], 'db*', 'glob', resolve)).toBe(true);
    expect(await authCheck(acl, 'pkg.install', [], 'web1', 'glob', resolve)).toBe(false);
  });
});

describe('specCheck (runner / wheel / @jobs)', () => {
  it('@runner, @runners and @wheel allow their whole client', () => {
    expect(specCheck(['@runner'], 'manage.up', {}, 'runner')).toBe(true);
    expect(specCheck(['@runners'], 'manage.up', {}, 'runner')).toBe(true);
    expect(specCheck(['@runner'], 'key.list_all', {}, 'wheel')).toBe(false);
    expect(specCheck(['@wheel'], 'key.list_all', {}, 'wheel')).toBe(true);
    expect(specCheck(['.*'], 'manage.up', {}, 'runner')).toBe(false);
  });
  it('@<module> allows one module', () => {
    expect(specCheck(['@jobs'], 'jobs.lookup_jid', {}, 'runner')).toBe(true);
    expect(specCheck(['@jobs'], 'manage.up', {}, 'runner')).toBe(false);
  });
  it('restricts by function name and arguments in the dict form', () => {
    const acl = [{ '@runner': ['manage.up', 'jobs.list_.*'] }, { '@key': [{ finger: { args: ['web.*'] } }] }];
    expect(specCheck(acl, 'manage.up', {}, 'runner')).toBe(true);
    expect(specCheck(acl, 'manage.down', {}, 'runner')).toBe(false);
    expect(specCheck(acl, 'jobs.list_jobs', {}, 'runner')).toBe(true);
    expect(specCheck(acl, 'key.finger', { arg: ['web1'] }, 'wheel')).toBe(true);
    expect(specCheck(acl, 'key.finger', { arg: ['db1'] }, 'wheel')).toBe(false);
    expect(specCheck(acl, 'key.delete', { arg: ['web1'] }, 'wheel')).toBe(false);
  });
  it('checks runner and wheel arguments as the master parses them (k=v words, __kwarg__, kwarg)', () => {
    const acl = [{ '@wheel': [{ 'key.finger': { args: ['web.*'], kwargs: { hash_type: 'sha256' } } }] }];
    const finger = (call: { arg?: unknown[]; kwarg?: Record<string, unknown> }) =>
      specCheck(acl, 'key.finger', call, 'wheel');
    expect(finger({ arg: ['web1', 'hash_type=sha256'] })).toBe(true);
    expect(finger({ arg: ['web1'], kwarg: { hash_type: 'sha256' } })).toBe(true);
    expect(finger({ arg: ['web=1', 'db1', 'hash_type=sha256'] })).toBe(false);
    expect(finger({ arg: ['web1', 'hash_type=sha256'], kwarg: { hash_type: 'md5' } })).toBe(false);
    expect(finger({ arg: ['web1', { __kwarg__: true, hash_type: 'md5' }] })).toBe(false);
  });
  it('answers Salt syntax error for a fun that is not module.function', () => {
    expect(specCheck(['@runner'], 'manage', {}, 'runner')).toBe(CHECK_SYNTAX_ERROR);
    expect(specCheck(['@runner'], 'a.b.c', {}, 'runner')).toBe(CHECK_SYNTAX_ERROR);
  });
  it('an empty list allows nothing', () => {
    expect(specCheck([], 'manage.up', {}, 'runner')).toBe(false);
  });
});

describe('permsForLogin', () => {
  it('sorts and deduplicates string entries as Salt prints them', () => {
    expect(permsForLogin(['.*', '@runner', '@wheel', '@jobs', '.*'])).toEqual([
      '.*',
      '@jobs',
      '@runner',
      '@wheel',
    ]);
  });
  it('keeps order when entries are mappings', () => {
    expect(permsForLogin(['b', { 'web*': ['x'] }, 'a'])).toEqual(['b', { 'web*': ['x'] }, 'a']);
  });
});

describe('authDecide: target restrictions and minions with unknown data (issue 27 item 10)', () => {
  // m2 has no cached grains: a `not G@...` target may reach it although the master's view drops it
  const bounded: TargetResolver = async (tgt) => {
    if (tgt === 'm1') return new Set(['m1']);
    if (tgt === 'not G@nosuchgrain:x and not m3')
      return { certain: new Set(['m1']), possible: new Set(['m1', 'm2']) };
    if (tgt === 'G@role:web') return { certain: new Set(['m1']), possible: new Set(['m1', 'm2']) };
    throw new Error('unexpected');
  };
  const acl = [{ m1: ['cmd.run'] }];
  it('refuses when a minion the target may reach is outside the entry', async () => {
    expect(
      await authDecide(acl, 'cmd.run', ['id'], 'not G@nosuchgrain:x and not m3', 'compound', bounded),
    ).toEqual({ allowed: false });
  });
  it('grants an entry only the minions its target certainly matches', async () => {
    expect(
      await authDecide([{ 'G@role:web': ['cmd.run'] }], 'cmd.run', ['id'], 'm1', 'glob', bounded),
    ).toEqual({
      allowed: true,
      minions: ['m1'],
    });
    const wide = { certain: new Set(['m1']), possible: new Set(['m1', 'm2']) };
    const r: TargetResolver = async (tgt) => (tgt === 'G@role:web' ? wide : new Set(['m2']));
    expect(
      (await authDecide([{ 'G@role:web': ['cmd.run'] }], 'cmd.run', ['id'], 'm2', 'glob', r)).allowed,
    ).toBe(false);
  });
  it('names the authorised minions only when a target restriction applied', async () => {
    expect(await authDecide(acl, 'cmd.run', ['id'], 'm1', 'glob', bounded)).toEqual({
      allowed: true,
      minions: ['m1'],
    });
    expect(await authDecide(['cmd.run'], 'cmd.run', ['id'], 'm1', 'glob', bounded)).toEqual({
      allowed: true,
    });
  });
});
