/**
 * Where Salt's `nacl` functions find their keys (salt/utils/nacl.py `_get_config`, `_get_sk`,
 * `_get_pk`): the call's keywords over the `nacl.config` option over the defaults
 * `<pki_dir>/master/nacl` and `<pki_dir>/master/nacl.pub` and `box_type: sealedbox`. Keys are
 * base64 text, inline (`sk`, `pk`) or in files whose trailing newlines are ignored.
 *
 * Salt's code asks `config.get` first, but salt/utils/nacl.py is a plain import with no
 * `__salt__`, so that always falls back to the process's own options: `nacl.config` in pillar
 * or grains is not read, as measured. tsalt reads the options the same way.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';

/** What the key lookup needs of a call's context: the daemon's options. */
export interface NaclCtx {
  readonly opts: Readonly<Record<string, unknown>>;
}

export interface NaclConfig {
  box_type: unknown;
  sk: unknown;
  sk_file: unknown;
  pk: unknown;
  pk_file: unknown;
  [key: string]: unknown;
}

/** The resolved configuration of one call. */
export function naclConfig(ctx: NaclCtx, kwargs: Readonly<Record<string, unknown>>): NaclConfig {
  const pki = String(ctx.opts.pki_dir ?? '/etc/salt/pki/minion');
  const config: NaclConfig = {
    box_type: kwargs.box_type ?? 'sealedbox',
    sk: null,
    sk_file: kwargs.sk_file || join(pki, 'master/nacl'),
    pk: null,
    pk_file: kwargs.pk_file || join(pki, 'master/nacl.pub'),
  };
  const extra = ctx.opts.extra;
  const fromConfig =
    ctx.opts['nacl.config'] ??
    (typeof extra === 'object' && extra !== null
      ? (extra as Record<string, unknown>)['nacl.config']
      : undefined);
  if (typeof fromConfig === 'object' && fromConfig !== null && !Array.isArray(fromConfig)) {
    Object.assign(config, fromConfig);
  }
  for (const key of Object.keys(config)) if (key in kwargs) config[key] = kwargs[key];
  return config;
}

/**
 * Python's `base64.b64decode` without `validate`: characters outside the alphabet are dropped,
 * then the padding must be right.
 */
export function b64decodeLoose(text: string): Buffer {
  const clean = text.replace(/[^A-Za-z0-9+/=]/g, '');
  const body = clean.replace(/=+$/, '');
  const pad = clean.length - body.length;
  if (body.includes('=') || clean.length % 4 !== 0 || (pad > 0 && pad > 2)) {
    const data = body.replace(/=/g, '');
    if (data.length % 4 === 1) {
      throw new SALT_ERR_EXEC_COMMAND(
        `Invalid base64-encoded string: number of data characters (${data.length}) cannot be 1 more than a multiple of 4`,
      );
    }
    if (clean.length % 4 !== 0 || body.includes('=')) throw new SALT_ERR_EXEC_COMMAND('Incorrect padding');
  }
  return Buffer.from(body, 'base64');
}

function readKey(config: NaclConfig, inline: 'sk' | 'pk', missing: string): Buffer {
  let key = config[inline] ? String(config[inline]) : undefined;
  const file = config[`${inline}_file`];
  if (!key && file) {
    try {
      key = readFileSync(String(file), 'utf8').replace(/\n+$/, '');
    } catch {
      throw new SALT_ERR_EXEC_COMMAND(missing);
    }
  }
  if (key === undefined)
    throw new SALT_ERR_EXEC_COMMAND(`no ${inline === 'sk' ? 'key or sk_file' : 'pubkey or pk_file'} found`);
  return b64decodeLoose(key);
}

/** The secret key: `sk`, else the content of `sk_file`. */
export function secretKey(config: NaclConfig): Buffer {
  return readKey(config, 'sk', 'no key or sk_file found');
}

/** The public key: `pk`, else the content of `pk_file`. */
export function publicKey(config: NaclConfig): Buffer {
  return readKey(config, 'pk', 'no pubkey or pk_file found');
}
