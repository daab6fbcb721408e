/**
 * `config.gather_bootstrap_script` (Salt's salt.utils.cloud `update_bootstrap`): fetches the
 * salt-bootstrap script (from a URL, or copies a local file) into every writable
 * `cloud.deploy.d` folder (the `deploy_scripts_search_path` entries, then the ones beside the
 * config file) and returns the first path written. A download that does not answer 200 gives
 * None; one that cannot connect is Salt's ConnectionError; text that is neither a URL nor a
 * file is Salt's TypeError.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pythonError } from './_py-exception.js';

const DEFAULT_URL = 'https://github.com/saltstack/salt-bootstrap/releases/latest/download/bootstrap-salt.sh';

/** The script's text and file name, or null when the download did not answer 200. */
async function scriptSource(
  ctx: ExecContext,
  url: string,
  defaultUrl: string,
): Promise<[string, string] | null> {
  if (url.startsWith('http') || url.includes('://')) {
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(120_000)]) });
    } catch (err) {
      const cause = (err as { cause?: Error }).cause;
      throw pythonError('requests.exceptions.ConnectionError', cause?.message ?? (err as Error).message);
    }
    if (res.status !== 200) {
      ctx.log.error(
        `Failed to download the latest stable version of the bootstrap-salt.sh script from ${url}. HTTP error: ${res.status}`,
      );
      return null;
    }
    return [await res.text(), url === defaultUrl ? 'bootstrap-salt.sh' : basename(url)];
  }
  if (existsSync(url)) return [await readFile(url, 'utf8'), basename(url)];
  // Salt hashes the text as a script's content and fails: a TypeError, which salt-call reports as invalid arguments
  throw new SALT_ERR_INVOCATION('Strings must be encoded before hashing');
}

function writable(dir: string): boolean {
  try {
    if (!statSync(dir).isDirectory()) return false;
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folders to write to, each with whether it may be created. */
function deployDirs(opts: Readonly<Record<string, unknown>>): Array<[string, boolean]> {
  const fromConf = join(dirname(String(opts.conf_file ?? '/etc/salt/minion')), 'cloud.deploy.d');
  const fromSys = join(String(opts.config_dir ?? '/etc/salt'), 'cloud.deploy.d');
  const listed = Array.isArray(opts.deploy_scripts_search_path) ? opts.deploy_scripts_search_path : [];
  const out: Array<[string, boolean]> = listed.map((e) => [String(e), e === fromConf || e === fromSys]);
  out.push([fromConf, true], [fromSys, true]);
  return out;
}

/** Salt's `gather_bootstrap_script`: the first path the script was written to, else null. */
export async function gatherBootstrapScript(ctx: ExecContext, bootstrap: unknown): Promise<string | null> {
  const defaultUrl = String(ctx.opts.bootstrap_script_url ?? DEFAULT_URL);
  const url = bootstrap ? String(bootstrap) : defaultUrl;
  const source = await scriptSource(ctx, url, defaultUrl);
  if (source === null) return null;
  const [content, name] = source;
  if (!content) throw pythonError('ValueError', 'No content in bootstrap script !');
  const seen = new Set<string>();
  const written: string[] = [];
  for (const [dir, makedirs] of deployDirs(ctx.opts)) {
    if (seen.has(dir)) continue;
    seen.add(dir);
    if (makedirs && !existsSync(dir)) {
      try {
        await mkdir(dir, { recursive: true });
      } catch {
        continue;
      }
    }
    if (!writable(dir)) continue;
    const path = join(dir, name);
    written.push(path);
    await writeFile(path, content).catch(() => undefined);
  }
  return written[0] ?? null;
}
