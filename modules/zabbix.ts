/**
 * Salt's `zabbix` execution module (`salt/modules/zabbix.py`): the Zabbix frontend's JSON-RPC
 * API (hosts, host groups and interfaces, users and user groups, user macros, media types,
 * templates, `run_query` for any method, `configuration_import`) and the comparison helpers
 * the `zabbix_*` states use. Every function logs in first (`_connection_*` keywords, else the
 * `zabbix.*` options); API and connection failures are Salt's `SaltException` texts.
 */
import { defineModule } from '../kernel/index.js';
import { hostFunctions } from './_zabbix-host-fns.js';
import { miscFunctions } from './_zabbix-misc-fns.js';
import { userFunctions } from './_zabbix-user-fns.js';

export default defineModule({
  name: 'zabbix',
  doc: `Support for Zabbix

Connection: the _connection_user, _connection_password and _connection_url keywords of each
call, else the zabbix.user, zabbix.password and zabbix.url options (minion config or pillar):

    zabbix.user: Admin
    zabbix.password: mypassword
    zabbix.url: http://127.0.0.1/zabbix/api_jsonrpc.php`,
  functions: { ...miscFunctions, ...userFunctions, ...hostFunctions },
});
