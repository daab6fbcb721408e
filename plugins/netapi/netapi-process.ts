/**
 * The netapi process (Salt's salt-api started with the master): serves the REST API
 * (server.ts) while `rest_cherrypy` or `rest_tornado` is configured.
 */
import type { DaemonProcessContext, ResolvedMasterConfig } from '../../kernel/index.js';
import { startNetapi } from './server.js';

export async function startNetapiProcess(ctx: DaemonProcessContext): Promise<() => Promise<void>> {
  const config = ctx.config as unknown as ResolvedMasterConfig;
  const handle = await startNetapi(
    config,
    ctx.log,
    ctx.kinds.all('netapi.routes'),
    ctx.kinds.all('netapi.eauth'),
  );
  return () => handle.close();
}
