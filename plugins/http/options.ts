/**
 * Salt's HTTP client options (`salt/config/__init__.py`, read by `salt.utils.http.query`): the
 * limits of the HTTP requests a minion or master makes for `http.query`, `cp.get_url`,
 * `cp.cache_file` and the `http(s)://` sources of `file.managed`. No plugin applies them: the
 * functions that fetch read them (`httpOptions.read(opts)`); the set is here so the config
 * checks them and docs/config.md lists them.
 */
import { defineOptions, intOption, numberOption, type OptionsInput } from '../../kernel/index.js';

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
});

declare module '../../kernel/index.js' {
  interface MasterPluginOptions extends OptionsInput<typeof httpOptions> {}
  interface MinionPluginOptions extends OptionsInput<typeof httpOptions> {}
}
