import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../kernel/log.js';
import type { WheelContext } from '../../../kernel/runners/define.js';
import config from './config.js';

const values = (opts: Record<string, unknown>) =>
  config.functions.values!.run(
    { opts, log: silentLogger(), jid: 'j', user: 'root', fireEvent: () => {} } as WheelContext,
    {} as never,
    {
      args: [],
      kwargs: {},
    },
  );

describe('config wheel', () => {
  it("returns the options tsalt does not use at the top level, as Salt's config.values", async () => {
    const out = (await values({
      ret_port: 4506,
      extra: { saltgui_templates: { t1: { command: 'test.ping' } }, 'mysql.host': 'db' },
    })) as Record<string, unknown>;
    expect(out.saltgui_templates).toEqual({ t1: { command: 'test.ping' } });
    expect(out['mysql.host']).toBe('db');
    expect(out.ret_port).toBe(4506);
    expect(out).not.toHaveProperty('extra');
  });

  it('masks every secret, at any depth; flags and empty values stay', async () => {
    const out = (await values({
      master_sign_pubkey: true,
      keysize: 2048,
      key_pass: null,
      extra: {
        sharedsecret: 'hunter2',
        'mysql.pass': 'p1',
        'redis.password': 'p2',
        api_token: 'tok',
        vault: { auth: { token: 't', method: 'token' }, roles: [{ secret_id: 's', role_id: 'r' }] },
        ldap: { bindpw: 'x', passwd: 'p3', user_key: 'k' },
        empty_secret: '',
      },
    })) as Record<string, unknown>;
    expect(out).toMatchObject({
      sharedsecret: '********',
      'mysql.pass': '********',
      'redis.password': '********',
      api_token: '********',
      vault: { auth: { token: '********', method: 'token' }, roles: [{ secret_id: 's', role_id: 'r' }] },
      ldap: { passwd: '********', user_key: '********' },
      master_sign_pubkey: true,
      keysize: 2048,
      key_pass: null,
      empty_secret: '',
    });
  });
});
