/**
 * A batch driver over a LocalClient (the `salt` CLI's, and a runner's `saltutil.cmd` with
 * `batch`), plus Salt's `saltutil.find_job` check for minions past their timeout
 * (salt/cli/batch.py reads returns through `cmd_iter_no_block`, which keeps waiting on minions
 * that still run the job). Job events read while waiting for the find_job answers are held and
 * handed to the batch afterwards, so no return is lost.
 */
import type { SaltEvent } from '../kernel/jobs/types.js';
import type { BatchDriver } from './batch.js';
import type { LocalClient } from './local-client.js';

/** `gatherJobTimeout`: seconds to wait for the find_job answers. */
export function localBatchDriver(client: LocalClient, gatherJobTimeout: number): BatchDriver {
  const held: SaltEvent[] = [];
  return {
    publish: (opts) => client.publish(opts),
    async nextEvent(deadline) {
      return held.shift() ?? client.nextEvent(deadline);
    },
    async stillRunning(jid, ids) {
      let fj: { jid: string; minions: string[] };
      try {
        fj = await client.publish({ tgt: ids, fun: 'saltutil.find_job', arg: [jid], tgtType: 'list' });
      } catch {
        return [];
      }
      const prefix = `salt/job/${fj.jid}/ret/`;
      const until = Date.now() + gatherJobTimeout * 1000;
      const running: string[] = [];
      let answered = 0;
      while (answered < fj.minions.length) {
        const ev = await client.nextEvent(until);
        if (!ev) break;
        if (!ev.tag.startsWith(prefix)) {
          held.push(ev);
          continue;
        }
        answered++;
        const found = ev.data.return;
        // find_job answers with the job's data while it runs, `{}` once it is over
        if (found && typeof found === 'object' && Object.keys(found).length > 0)
          running.push(ev.tag.slice(prefix.length));
      }
      return running;
    },
  };
}
