import { describe, expect, it } from 'vitest';
import {
  createError,
  SALT_ERR_BUS_TIMEOUT,
  SALT_ERR_CONFIG_INVALID,
  SALT_ERR_CONFIG_LOAD,
  SALT_ERR_CRYPT_AUTH_FAILED,
  SALT_ERR_CRYPT_NONCE,
  SALT_ERR_HOOK_FAILED,
  SALT_ERR_LOADER_NOT_AVAILABLE,
  SALT_ERR_PROCESS_STOPPED,
  SaltError,
} from './errors.js';

describe('SaltError', () => {
  it('carries a code, a message and the code as its name', () => {
    const e = new SaltError('ACME_ERR_THING', 'the thing broke');
    expect(e).toBeInstanceOf(Error);
    expect(e.code).toBe('ACME_ERR_THING');
    expect(e.name).toBe('ACME_ERR_THING');
    expect(e.message).toBe('the thing broke');
    expect(e.stack).toContain('the thing broke');
    expect(String(e)).toBe('ACME_ERR_THING: the thing broke');
  });

  it('keeps cause and details only when given', () => {
    const plain = new SaltError('X_ERR', 'm');
    expect('cause' in plain).toBe(false);
    expect(plain.details).toBeUndefined();
    const cause = new Error('root');
    const rich = new SaltError('X_ERR', 'm', { cause, details: { path: '/etc/salt' } });
    expect(rich.cause).toBe(cause);
    expect(rich.details).toEqual({ path: '/etc/salt' });
  });

  it('keeps a falsy cause other than undefined', () => {
    expect(new SaltError('X_ERR', 'm', { cause: 0 }).cause).toBe(0);
    expect(new SaltError('X_ERR', 'm', { cause: null }).cause).toBeNull();
    expect('cause' in new SaltError('X_ERR', 'm', { cause: undefined })).toBe(false);
  });

  it('serializes to { code, message, details? } without the cause or stack', () => {
    expect(new SaltError('X_ERR', 'm', { cause: new Error('secret') }).toJSON()).toEqual({
      code: 'X_ERR',
      message: 'm',
    });
    expect(new SaltError('X_ERR', 'm', { details: [1, 2] }).toJSON()).toEqual({
      code: 'X_ERR',
      message: 'm',
      details: [1, 2],
    });
    expect(JSON.parse(JSON.stringify({ error: new SaltError('X_ERR', 'm') }))).toEqual({
      error: { code: 'X_ERR', message: 'm' },
    });
  });
});

describe('createError', () => {
  const ACME_ERR_QUOTA = createError(
    'ACME_ERR_QUOTA',
    (user: string, limit: number) => `${user} is over ${limit}`,
  );

  it('makes a class with a static code and the code as its name', () => {
    expect(ACME_ERR_QUOTA.code).toBe('ACME_ERR_QUOTA');
    expect(ACME_ERR_QUOTA.name).toBe('ACME_ERR_QUOTA');
  });

  it('builds the message from the typed arguments', () => {
    const e = new ACME_ERR_QUOTA('alice', 3);
    expect(e).toBeInstanceOf(ACME_ERR_QUOTA);
    expect(e).toBeInstanceOf(SaltError);
    expect(e).toBeInstanceOf(Error);
    expect(e.code).toBe('ACME_ERR_QUOTA');
    expect(e.name).toBe('ACME_ERR_QUOTA');
    expect(e.message).toBe('alice is over 3');
  });

  it('takes options after the message arguments', () => {
    const cause = new Error('db down');
    const e = new ACME_ERR_QUOTA('bob', 1, { cause, details: { used: 2 } });
    expect(e.cause).toBe(cause);
    expect(e.details).toEqual({ used: 2 });
    expect(e.toJSON()).toEqual({ code: 'ACME_ERR_QUOTA', message: 'bob is over 1', details: { used: 2 } });
  });

  it('takes options as the only argument of a code without message arguments', () => {
    const cause = new Error('bad mac');
    const e = new SALT_ERR_CRYPT_AUTH_FAILED({ cause });
    expect(e.message).toBe('message authentication failed');
    expect(e.cause).toBe(cause);
    expect(new SALT_ERR_CRYPT_NONCE().message).toBe('nonce verification error');
    expect(new SALT_ERR_PROCESS_STOPPED().cause).toBeUndefined();
  });

  it('keeps classes of different codes apart', () => {
    const e = new SALT_ERR_CONFIG_LOAD('/etc/salt/master');
    expect(e).toBeInstanceOf(SALT_ERR_CONFIG_LOAD);
    expect(e).not.toBeInstanceOf(SALT_ERR_CONFIG_INVALID);
    expect(e).not.toBeInstanceOf(ACME_ERR_QUOTA);
  });

  it('lets a plugin catch by class or by code', () => {
    const check = (err: unknown): string =>
      err instanceof SALT_ERR_HOOK_FAILED ? 'class' : err instanceof SaltError ? err.code : 'other';
    expect(check(new SALT_ERR_HOOK_FAILED('shutdown', 'acme', 'boom'))).toBe('class');
    expect(check(new SALT_ERR_BUS_TIMEOUT('request', 5000))).toBe('SALT_ERR_BUS_TIMEOUT');
    expect(check(new Error('x'))).toBe('other');
  });
});

describe('catalog messages', () => {
  it.each([
    [
      new SALT_ERR_CONFIG_LOAD('/etc/salt/master.config.ts'),
      'failed to load config from /etc/salt/master.config.ts',
    ],
    [
      new SALT_ERR_CONFIG_INVALID('/etc/salt/master', '  ret_port: expected a number'),
      'invalid configuration in /etc/salt/master:\n  ret_port: expected a number',
    ],
    [
      new SALT_ERR_HOOK_FAILED('beforePublish', 'acme', 'boom'),
      'hook "beforePublish" failed in plugin "acme": boom',
    ],
    [
      new SALT_ERR_BUS_TIMEOUT('request to tcp://127.0.0.1:4506', 60000),
      'request to tcp://127.0.0.1:4506 timed out after 60000 ms',
    ],
    [new SALT_ERR_LOADER_NOT_AVAILABLE('foo.bar', ''), "'foo.bar' is not available."],
    [
      new SALT_ERR_LOADER_NOT_AVAILABLE('foo.bar', "'foo' __virtual__ returned False"),
      "'foo.bar' is not available. 'foo' __virtual__ returned False",
    ],
  ])('%s', (err, message) => {
    expect(err.message).toBe(message);
  });
});
