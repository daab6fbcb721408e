import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import type { UnitLogger } from '../kernel/loader/define.js';
import { buildCallReturn, callFunction, isLocalCall } from './caller.js';

const VECTORS = resolve(import.meta.dirname, '../../../shared/salt-vectors/return.json');
/** Under vitest the built-in modules folder holds only .ts sources: run the compiled ones. */
const BUILT_MODULES = resolve(import.meta.dirname, '../../dist/modules');

const root = mkdtempSync(join(tmpdir(), 'tsalt-caller-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function minionConfig(extra: Record<string, unknown> = {}): ResolvedMinionConfig {
  return {
    id: 'c1',
    master: '127.0.0.1',
    master_port: 1,
    file_client: 'remote',
    master_type: 'str',
    cachedir: join(root, 'cache'),
    pki_dir: join(root, 'pki'),
    extension_modules: join(root, 'extmods'),
    module_dirs: [BUILT_MODULES],
    extensions: [],
    disable_modules: [],
    returner_dirs: [],
    disable_returners: [],
    return: [],
    grains: {},
    auth_timeout: 1,
    encryption_algorithm: 'OAEP-SHA1',
    signing_algorithm: 'PKCS1v15-SHA1',
    ...extra,
  } as unknown as ResolvedMinionConfig;
}

function recordingLogger(): UnitLogger & { lines: string[] } {
  const lines: string[] = [];
  const at = (obj: object | string, msg?: string) => {
    lines.push(typeof obj === 'string' ? obj : (msg ?? ''));
  };
  return { lines, trace: at, debug: at, info: at, warn: at, error: at };
}

describe('buildCallReturn', () => {
  it("has the fields of Salt's salt-call _return in Salt's order (return.json)", () => {
    const load = buildCallReturn({
      id: 'vm1',
      fun: 'event.send',
      arg: ['my/tag', '{"a":1}'],
      return: true,
      retcode: 0,
    });
    expect(Object.keys(load)).toEqual(['cmd', 'id', 'jid', 'return', 'retcode', 'fun', 'fun_args']);
    expect(load.jid).toBe('req');
    if (existsSync(VECTORS)) {
      const v = JSON.parse(readFileSync(VECTORS, 'utf8')) as {
        returns: { phase: string; decrypted_load: Record<string, unknown> }[];
      };
      const real = v.returns.find((r) => r.phase === 'salt_call_event_send')!.decrypted_load;
      const channelAdded = new Set(['nonce', 'ts', 'tok']);
      expect(Object.keys(load)).toEqual(Object.keys(real).filter((k) => !channelAdded.has(k)));
      const { nonce: _n, ts: _t, tok: _k, ...rest } = real;
      expect(load).toEqual(rest);
    }
  });

  it('carries the declared outputter after retcode, and success only when returners were named', () => {
    const load = buildCallReturn({
      id: 'm',
      fun: 'f.g',
      arg: [],
      return: 1,
      retcode: 0,
      out: 'txt',
      withReturners: true,
    });
    expect(Object.keys(load)).toEqual([
      'cmd',
      'id',
      'jid',
      'return',
      'retcode',
      'out',
      'fun',
      'fun_args',
      'success',
    ]);
    expect(load.success).toBe(true);
  });
});

describe('isLocalCall', () => {
  it('is local with --local, file_client local or master_type disable', () => {
    expect(isLocalCall({ file_client: 'remote', master_type: 'str' }, true)).toBe(true);
    expect(isLocalCall({ file_client: 'local', master_type: 'str' })).toBe(true);
    expect(isLocalCall({ file_client: 'remote', master_type: 'disable' })).toBe(true);
    expect(isLocalCall({ file_client: 'remote', master_type: 'str' })).toBe(false);
  });
});

describe.skipIf(!existsSync(BUILT_MODULES))('callFunction --local (compiled modules)', () => {
  it('runs the function with the salt-call publish data and removes its proc file', async () => {
    const log = recordingLogger();
    const r = await callFunction(minionConfig(), 'c1', {
      fun: 'test.arg',
      arg: ['a', 1, { __kwarg__: true, k: 'v' }],
      local: true,
      log,
    });
    expect(r.retcode).toBe(0);
    expect(r.returned).toBeUndefined();
    const ret = r.return as { args: unknown[]; kwargs: Record<string, unknown> };
    expect(ret.args).toEqual(['a', 1]);
    expect(Object.keys(ret.kwargs)).toEqual(['k', '__pub_fun', '__pub_pid', '__pub_jid', '__pub_tgt']);
    expect(ret.kwargs.__pub_tgt).toBe('salt-call');
    expect(ret.kwargs.__pub_jid).toBe(r.jid);
    expect(readdirSync(join(root, 'cache', 'proc'))).toEqual([]);
    expect(r.load?.fun_args).toEqual(['a', 1, { __kwarg__: true, k: 'v' }]);
  });

  it('cmd.run goes through the shell, as Salt: salt-call passes a jid (__pub_jid)', async () => {
    const r = await callFunction(minionConfig(), 'c1', {
      fun: 'cmd.run',
      arg: ['echo hi | tr h H'],
      local: true,
      log: recordingLogger(),
    });
    expect(r.return).toBe('Hi');
  });

  it('a missing function with no function of that prefix is missing; a module name gives its docs', async () => {
    const missing = await callFunction(minionConfig(), 'c1', {
      fun: 'test.nope',
      arg: [],
      local: true,
      log: recordingLogger(),
    });
    expect(missing.missing).toBe(true);
    expect(missing.return).toBe("'test.nope' is not available.");
    const docs = await callFunction(minionConfig(), 'c1', {
      fun: 'test',
      arg: [],
      local: true,
      log: recordingLogger(),
    });
    expect(docs.missing).toBeUndefined();
    expect(docs.out).toBe('nested');
    const map = docs.return as Record<string, unknown>;
    expect(map.test).toBe("'test' is not available.");
    expect(typeof map['test.ping']).toBe('string');
  });

  it("names a returner that cannot be loaded, in Salt's words, and the call still stands", async () => {
    const log = recordingLogger();
    const r = await callFunction(minionConfig(), 'c1', {
      fun: 'test.ping',
      arg: [],
      local: true,
      returners: ['', 'mysql'],
      log,
    });
    expect(r.return).toBe(true);
    expect(log.lines.some((l) => l.includes('Returner mysql.returner could not be loaded'))).toBe(true);
    expect(r.load?.success).toBe(true);
  });
});

describe('callFunction with a master', () => {
  it('fails with SALT_ERR_AUTH_UNREACHABLE within auth_timeout when no master answers, running nothing', async () => {
    const started = Date.now();
    await expect(
      callFunction(minionConfig(), 'c1', { fun: 'test.ping', arg: [], log: recordingLogger() }),
    ).rejects.toMatchObject({ code: 'SALT_ERR_AUTH_UNREACHABLE' });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
