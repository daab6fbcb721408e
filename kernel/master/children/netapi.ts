/**
 * The netapi child (Salt's salt-api started with the master): started only when
 * `rest_cherrypy` or `rest_tornado` is configured; serves the REST API (plugins/netapi).
 */

import { startNetapi } from '../../../plugins/netapi/server.js';
import type { ResolvedMasterConfig } from '../../config/index.js';
import { runChild } from '../../daemon/child-runtime.js';

await runChild<ResolvedMasterConfig>('netapi', async ({ config, log }) => {
  const handle = await startNetapi(config, log);
  return () => handle.close();
});
