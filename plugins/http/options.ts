/**
 * Salt's HTTP client options (`salt/config/__init__.py`, read by `salt.utils.http.query`): the
 * limits and the forward proxy of the HTTP requests a minion or master makes for `http.query`,
 * `cp.get_url`, `cp.cache_file` and the `http(s)://` sources of `file.managed`. The http plugin
 * (http-plugin.ts) holds them so a bad value stops the daemon at start; the functions that
 * fetch read them (`httpOptions.read(opts)`), and docs/config.md lists them.
 */
import {
  defineOptions,
  intOption,
  numberOption,
  type OptionsInput,
  stringListOption,
  stringOption,
} from '../../kernel/index.js';

export const httpOptions = defineOptions(['master', 'minion'], {
  http_connect_timeout: numberOption(
    20,
    'Seconds an HTTP request may take to connect (Salt applies it to tornado fetches such as cp.get_url).',
    { min: 0 },
  ),
  http_request_timeout: numberOption(
    3600,
    'Seconds a whole HTTP request may take, download included: make it longer than the largest download.',
    { min: 0 },
  ),
  http_max_body: intOption(
    100 * 1024 * 1024 * 1024,
    'The largest HTTP response body, in bytes, a request reads (100 GiB); a larger one fails.',
    { min: 0 },
  ),
  proxy_host: stringOption(
    '',
    'Host of the forward proxy HTTP(S) requests go through (http.query, cp.get_url, http(s) file sources, pip); used with proxy_port.',
  ),
  proxy_port: intOption(0, 'Port of the forward proxy; 0: no proxy.', { min: 0, max: 65535 }),
  proxy_username: stringOption('', 'User name for the proxy (basic auth), sent with proxy_password.'),
  proxy_password: stringOption('', 'Password for the proxy (basic auth).'),
  no_proxy: stringListOption(
    'Host names requested directly, not through the proxy (exact names, as Salt compares them).',
  ),
});

declare module '../../kernel/index.js' {
  interface MasterPluginOptions extends OptionsInput<typeof httpOptions> {}
  interface MinionPluginOptions extends OptionsInput<typeof httpOptions> {}
}
