/**
 * `GET /jobs` (Salt's `jobs.list_jobs`) and `GET /jobs/:jid` (`jobs.list_job` as `info` and
 * `jobs.lookup_jid` as `return`), read from the master job cache; the caller needs runner
 * permission for those `jobs` functions (`@jobs`, `@runner` or `{'@runner': ['jobs.*']}`).
 */
import type { FastifyInstance } from 'fastify';
import { jobCacheView } from '../../../client/job-cache-view.js';
import {
  type JobCacheView,
  masterReturnerLoader,
  openMasterJobCache,
  type StoredLoad,
  type StoredReturn,
} from '../../../kernel/index.js';
import { isJid, jidToTime } from '../../../kernel/util.js';
import { BUILTIN_RETURNERS } from '../../builtin-dirs.js';
import { specCheck } from '../auth/acl.js';
import { type NetapiContext, requireIdentity, send, sessionCookie } from '../context.js';
import { NETAPI_ERR_BAD_LOWSTATE, NETAPI_ERR_FORBIDDEN, NETAPI_ERR_NOT_FOUND } from '../errors.js';
import type { Identity } from '../local-call.js';

/** Salt's `_format_job_instance` + `StartTime`. */
function formatJob(
  jid: string,
  load: StoredLoad | Record<string, unknown> | undefined,
): Record<string, unknown> {
  const j = (load ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {
    Function: j.fun ?? 'unknown-function',
    Arguments: Array.isArray(j.arg) ? [...j.arg] : [],
    Target: j.tgt ?? 'unknown-target',
    'Target-type': j.tgt_type ?? 'list',
    User: j.user ?? 'root',
  };
  if (Array.isArray(j.Minions)) out.Minions = [...j.Minions];
  out.StartTime = jidToTime(jid);
  return out;
}

function mayRun(who: Identity, fun: string): void {
  if (specCheck(who.authList, fun, {}, 'runner') !== true)
    throw new NETAPI_ERR_FORBIDDEN(`user ${who.user} may not run the runner function ${fun}`);
}

export function jobRoutes(app: FastifyInstance, ctx: NetapiContext): void {
  let view: Promise<JobCacheView> | undefined;
  const jobs = () => {
    view ??= (async () => {
      const loader = masterReturnerLoader(ctx.config, ctx.log, BUILTIN_RETURNERS);
      const cache = await openMasterJobCache(ctx.config, loader);
      return jobCacheView(cache.def, cache.ctx);
    })();
    view.catch(() => {
      view = undefined;
    });
    return view;
  };

  app.get('/jobs', async (req, reply) => {
    const who = await requireIdentity(ctx, req);
    mayRun(who, 'jobs.list_jobs');
    const listed = await (await jobs()).listJobs({});
    const out: Record<string, unknown> = {};
    for (const job of [...listed].sort((a, b) => (a.jid < b.jid ? -1 : a.jid > b.jid ? 1 : 0))) {
      // Salt's listing is each job's load alone: `Minions` only in a job's detail (below)
      const { jid, Minions: _targeted, ...rest } = job;
      out[jid] = rest;
    }
    reply.header('Cache-Control', 'private').header('Set-Cookie', sessionCookie(who.token));
    return send(req, reply, 200, { return: [out] });
  });

  app.get<{ Params: { jid: string } }>('/jobs/:jid', async (req, reply) => {
    const who = await requireIdentity(ctx, req);
    mayRun(who, 'jobs.list_job');
    const jid = req.params.jid;
    if (!isJid(jid)) throw new NETAPI_ERR_BAD_LOWSTATE(`${JSON.stringify(jid)} is not a jid (20 digits)`);
    const v = await jobs();
    const [load, result] = await Promise.all([v.getLoad(jid), v.getJid(jid)]);
    if (!load && Object.keys(result).length === 0)
      throw new NETAPI_ERR_NOT_FOUND(`jid ${jid} is not in the job cache (it never ran, or it expired)`);
    const returns: Record<string, unknown> = {};
    for (const [id, r] of Object.entries(result as Record<string, StoredReturn>)) returns[id] = r.return;
    reply.header('Cache-Control', 'private').header('Set-Cookie', sessionCookie(who.token));
    return send(req, reply, 200, {
      info: [{ jid, ...formatJob(jid, load), Result: result }],
      return: [returns],
    });
  });
}
