/**
 * The key half of Salt's `aptpkg.mod_repo`: before the repo line is written, `keyid` +
 * `keyserver`, `key_url` (salt://, http(s)://, a path) or `key_text` put the repo's key where
 * apt reads it: the trusted.gpg keyring through apt-key, or with `aptkey=False` the file the
 * line's `signed-by=` names.
 */
import { renameSync } from 'node:fs';
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { callApt } from './_pkg-apt-call.js';
import { addRepoKey, getRepoKeys } from './_pkg-apt-keys.js';
import { execCommand } from './_pkg-exec.js';

/** A keyid as YAML may type it (Salt turns an integer into its `0x` hex form). */
const keyidText = (k: unknown): string => (typeof k === 'number' ? `0x${k.toString(16)}` : pyStr(k));

async function fromKeyserver(
  ctx: ExecContext,
  ids: unknown,
  keyserver: unknown,
  aptkey: boolean,
  signedby: string,
): Promise<void> {
  if (!ids || !keyserver) throw new SALT_ERR_INVOCATION('both keyserver and keyid options required.');
  const server = pyStr(keyserver);
  for (const raw of Array.isArray(ids) ? ids : [ids]) {
    const key = keyidText(raw);
    let imported: boolean;
    if (!aptkey) {
      const have = await getRepoKeys(ctx, false, path.dirname(signedby));
      imported = Boolean(have && key in have);
    } else {
      const out = await execCommand(['apt-key', 'export', key]);
      imported = out.stdout.startsWith('-----BEGIN PGP');
    }
    if (imported) continue;
    if (!aptkey) {
      const added = await addRepoKey(ctx, {
        keyid: key,
        keyserver: server,
        aptkey: false,
        keydir: path.dirname(signedby),
        keyfile: signedby,
      });
      if (!added) throw new SALT_ERR_EXEC_COMMAND(`Error: Could not add key: ${key}`);
      continue;
    }
    const argv = ['apt-key', 'adv', '--batch', '--keyserver', server, '--logger-fd', '1', '--recv-keys', key];
    const r = await callApt(ctx, argv);
    if (r.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(`Error: key retrieval failed: ${r.stdout}`);
  }
}

async function fromUrl(
  ctx: ExecContext,
  url: string,
  saltenv: string,
  aptkey: boolean,
  signedby: string,
): Promise<void> {
  const cached = await ctx.call('cp.cache_file', [url, saltenv]);
  if (typeof cached !== 'string' || !cached) throw new SALT_ERR_EXEC_COMMAND(`Error: file not found: ${url}`);
  let file = cached;
  if (signedby && path.basename(file) !== path.basename(signedby)) {
    const renamed = path.join(path.dirname(file), path.basename(signedby));
    renameSync(file, renamed);
    file = renamed;
  }
  if (!aptkey) {
    const added = await addRepoKey(ctx, {
      path: file,
      aptkey: false,
      ...(signedby ? { keydir: path.dirname(signedby) } : {}),
    });
    if (!added) throw new SALT_ERR_EXEC_COMMAND(`Error: Could not add key: ${file}`);
    return;
  }
  const out = await execCommand(['apt-key', 'add', file]);
  if (!out.stdout.toUpperCase().startsWith('OK'))
    throw new SALT_ERR_EXEC_COMMAND(`Error: failed to add key from ${url}`);
}

/**
 * Puts the repo's key in place as Salt's `mod_repo` does; `kwargs.keyid` and `kwargs.keyserver`
 * are consumed (Salt pops them), the rest is only read.
 */
export async function modRepoKeys(
  ctx: ExecContext,
  kwargs: Record<string, unknown>,
  aptkey: boolean,
  signedby: string,
): Promise<void> {
  if (!aptkey && !signedby)
    throw new SALT_ERR_INVOCATION("missing 'signedby' option when apt-key is missing");
  if ('keyid' in kwargs) {
    const { keyid, keyserver } = kwargs;
    delete kwargs.keyid;
    delete kwargs.keyserver;
    await fromKeyserver(ctx, keyid, keyserver, aptkey, signedby);
  } else if ('key_url' in kwargs) {
    await fromUrl(ctx, pyStr(kwargs.key_url), pyStr(kwargs.saltenv ?? 'base'), aptkey, signedby);
  } else if ('key_text' in kwargs) {
    const text = pyStr(kwargs.key_text);
    const out = await execCommand(['apt-key', 'add', '-'], { stdin: text });
    if (!out.stdout.toUpperCase().startsWith('OK'))
      throw new SALT_ERR_EXEC_COMMAND(`Error: failed to add key:\n${text}`);
  }
}
