/**
 * The command line of `pip install` as Salt's `pip.install` builds it from its keywords: links
 * and indexes (checked), proxy (or the minion's `proxy_*` options), timeout, target, upgrade
 * and reinstall flags, packages (`;` back to `,` inside version ranges), editables and extra
 * arguments. Errors are Salt's messages.
 */
import { existsSync } from 'node:fs';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { proxyUrl } from './_http-proxy.js';
import { listArg } from './_pip-bin.js';

const VALID_PROTOS = ['http', 'https', 'ftp', 'file'];
const validUrl = (u: string): boolean => {
  const at = u.indexOf('://');
  return at > 0 && VALID_PROTOS.includes(u.slice(0, at));
};

/** The keywords of `pip.install` this builder reads. */
export interface InstallArgs {
  pkgs?: unknown;
  editable?: unknown;
  requirements?: unknown;
  log?: string | null;
  proxy?: unknown;
  timeout?: unknown;
  find_links?: unknown;
  index_url?: string | null;
  extra_index_url?: string | null;
  no_index?: boolean;
  target?: string | null;
  upgrade?: boolean;
  force_reinstall?: boolean;
  ignore_installed?: boolean;
  exists_action?: string | null;
  no_deps?: boolean;
  no_cache_dir?: boolean;
  pre_releases?: boolean;
  cert?: string | null;
  trusted_host?: string | null;
  disable_version_check?: boolean;
  cache_dir?: string | null;
  no_binary?: unknown;
  use_wheel?: boolean;
  no_use_wheel?: boolean;
  mirrors?: unknown;
  build?: string | null;
  download?: string | null;
  download_cache?: string | null;
  source?: string | null;
  no_install?: boolean;
  no_download?: boolean;
  allow_all_external?: boolean;
  allow_external?: unknown;
  allow_unverified?: unknown;
  process_dependency_links?: boolean;
  global_options?: unknown;
  install_options?: unknown;
  extra_args?: unknown;
}

/** `--proxy` from the call, or from the minion's proxy options unless `proxy` is False. */
export function proxyArgs(ctx: ExecContext, proxy: unknown): string[] {
  if (proxy) return ['--proxy', String(proxy)];
  const url = proxy === false ? null : proxyUrl(ctx.opts);
  return url ? ['--proxy', url] : [];
}

export function timeoutArgs(timeout: unknown): string[] {
  if (timeout === undefined || timeout === null || timeout === false || timeout === 0 || timeout === '')
    return [];
  if (typeof timeout === 'number' ? !Number.isInteger(timeout) : !/^[+-]?\d+$/.test(String(timeout).trim()))
    throw new SALT_ERR_EXEC_COMMAND(`'${timeout}' is not a valid timeout, must be an integer`);
  return ['--timeout', String(timeout)];
}

/** The arguments after `pip install`, or null when there is nothing to install (Salt answers without running pip). */
export function installArgs(ctx: ExecContext, a: InstallArgs, requirementArgs: string[]): string[] | null {
  const cmd: string[] = [];
  // pip dropped --use-wheel and --no-use-wheel after 9.0.3: Salt logs and ignores them
  if (a.use_wheel || a.no_use_wheel)
    ctx.log.error('The --use-wheel/--no-use-wheel options are not supported by this pip; ignored.');
  if (a.no_binary) cmd.push('--no-binary', listArg(a.no_binary).join(','));
  if (a.log) cmd.push('--log', a.log);
  cmd.push(...proxyArgs(ctx, a.proxy), ...timeoutArgs(a.timeout));
  for (const link of listArg(a.find_links)) {
    if (!validUrl(link) && !existsSync(link))
      throw new SALT_ERR_EXEC_COMMAND(`'${link}' is not a valid URL or path`);
    cmd.push('--find-links', link);
  }
  if (a.no_index && (a.index_url || a.extra_index_url))
    throw new SALT_ERR_EXEC_COMMAND(
      "'no_index' and ('index_url' or 'extra_index_url') are mutually exclusive.",
    );
  for (const [flag, url] of [
    ['--index-url', a.index_url],
    ['--extra-index-url', a.extra_index_url],
  ] as const) {
    if (!url) continue;
    if (!validUrl(url)) throw new SALT_ERR_EXEC_COMMAND(`'${url}' is not a valid URL`);
    cmd.push(flag, url);
  }
  if (a.no_index) cmd.push('--no-index');
  if (listArg(a.mirrors).length > 0)
    throw new SALT_ERR_EXEC_COMMAND(
      'pip >= 7.0.0 does not support mirror argument: use index_url and/or extra_index_url instead',
    );
  if (a.disable_version_check) cmd.push('--disable-pip-version-check');
  const target = a.target ?? process.env.VENV_PIP_TARGET;
  if (a.build) cmd.push('--build', a.build);
  if (target) cmd.push('--target', target);
  if (a.download) cmd.push('--download', a.download);
  if (a.download_cache || a.cache_dir) cmd.push('--cache-dir', (a.download_cache || a.cache_dir) as string);
  if (a.source) cmd.push('--source', a.source);
  if (a.upgrade) cmd.push('--upgrade');
  if (a.force_reinstall) cmd.push('--force-reinstall');
  if (a.ignore_installed) cmd.push('--ignore-installed');
  if (a.exists_action) {
    if (!['s', 'i', 'w', 'b'].includes(a.exists_action.toLowerCase()))
      throw new SALT_ERR_EXEC_COMMAND(
        `The exists_action pip option only supports the values s, i, w, and b. '${a.exists_action}' is not valid.`,
      );
    cmd.push('--exists-action', a.exists_action);
  }
  if (a.no_deps) cmd.push('--no-deps');
  if (a.no_install) cmd.push('--no-install');
  if (a.no_download) cmd.push('--no-download');
  if (a.no_cache_dir) cmd.push('--no-cache-dir');
  if (a.pre_releases) cmd.push('--pre');
  if (a.cert) cmd.push('--cert', a.cert);
  for (const opt of listArg(a.global_options)) cmd.push('--global-option', opt);
  for (const opt of listArg(a.install_options)) cmd.push('--install-option', opt);
  cmd.push(...requirementArgs);
  const pkgs = listArg(a.pkgs);
  const editable = listArg(a.editable);
  if (pkgs.length > 0) cmd.push(...pkgs.map((p) => p.replace(/;/g, ',')));
  else if (requirementArgs.length === 0 && editable.length === 0) return null;
  for (const entry of editable) {
    const local = entry === '.' || entry.startsWith('file://') || entry.startsWith('/');
    if (!local && !/(?:#|#.*?&)egg=([^&]+)/.test(entry))
      throw new SALT_ERR_EXEC_COMMAND('You must specify an egg for this editable');
    cmd.push('--editable', entry);
  }
  if (a.allow_all_external) cmd.push('--allow-all-external');
  for (const p of listArg(a.allow_external)) cmd.push('--allow-external', p);
  for (const p of listArg(a.allow_unverified)) cmd.push('--allow-unverified', p);
  if (a.process_dependency_links) cmd.push('--process-dependency-links');
  if (a.trusted_host) cmd.push('--trusted-host', a.trusted_host);
  for (const arg of Array.isArray(a.extra_args) ? a.extra_args : []) {
    if (arg !== null && typeof arg === 'object' && !Array.isArray(arg)) {
      const [key, val] = Object.entries(arg)[0] ?? [];
      if (key === undefined) continue;
      if (val !== null && typeof val === 'object')
        throw new SALT_ERR_EXEC_COMMAND(`Too many levels in: ${key}`);
      cmd.push(key, String(val));
    } else cmd.push(String(arg));
  }
  return cmd;
}
