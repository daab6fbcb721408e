/**
 * `salt.utils.mattermost.query` and the message both of Salt's mattermost users build: a form
 * body `payload=<json>` (channel, username, the text fenced as fixed-width) POSTed to
 * `<api_url>/hooks/<hook>`; the answer as Salt reads it (truthy unless the request crashed).
 */
import { pyTruthy } from '../kernel/python/index.js';
import { pyJson } from '../plugins/renderers/index.js';
import { pythonError, pyValueClass } from './_py-exception.js';
import { type QueryContext, query } from './http.js';

/** `urljoin(urljoin(api_url, '/hooks/'), hook)`; a base that is no URL leaves the relative path. */
function hookUrl(apiUrl: string, hook: string): string {
  try {
    return new URL(hook, new URL('/hooks/', apiUrl)).href;
  } catch {
    return `/hooks/${hook}`;
  }
}

export interface MattermostPost {
  message: unknown;
  channel: unknown;
  username: unknown;
  apiUrl: unknown;
  hook: unknown;
}

/** Posts the message; Salt's result dict (or True for a 204). */
export async function postToMattermost(ctx: QueryContext, p: MattermostPost): Promise<unknown> {
  if (typeof p.message !== 'string')
    throw pythonError('TypeError', `can only concatenate str (not "${pyValueClass(p.message)}") to str`);
  const parameters: Record<string, unknown> = {};
  if (pyTruthy(p.channel)) parameters.channel = p.channel;
  if (pyTruthy(p.username)) parameters.username = p.username;
  parameters.text = `\`\`\`${p.message}\`\`\``;
  const data = `payload=${pyJson(parameters, false, false)}`;
  const url = hookUrl(String(p.apiUrl), String(p.hook));
  const result = await query(ctx, url, { method: 'POST', data, decode: true, status: true });
  if (result.status === 200) return { message: `Message posted ${data} correctly`, res: true };
  if (result.status === 204) return true;
  if (result.dict !== undefined) return { message: 'Message not posted', res: true };
  return { message: 'invalid_auth', res: false };
}
