/**
 * The cluster plugin: several masters as one (docs/cluster.md). It adds the master's `cluster`
 * process (cluster-process.ts) and taps `jobPublished` in the request server to hand every
 * publish to it (publish-handoff.ts). The options-apply step adds it when `cluster_id` is set.
 */
import { defineDaemonProcess, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { clusterOptions } from './options.js';
import { PublishHandOff } from './publish-handoff.js';

export function clusterPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:cluster',
    daemons: ['master'],
    options: clusterOptions,
    apply(api) {
      api.processes.register(
        defineDaemonProcess({
          name: 'cluster',
          start: async (ctx) => (await import('./cluster-process.js')).startCluster(ctx),
        }),
      );
      const sockDir = String(api.config.sock_dir);
      let handoff: PublishHandOff | undefined;
      api.hooks.jobPublished.tapPromise('tsalt:cluster', async (job) => {
        handoff ??= new PublishHandOff(sockDir);
        handoff.send(job.load as unknown as Record<string, unknown>);
      });
      api.hooks.shutdown.tapPromise('tsalt:cluster', async () => {
        await handoff?.close();
      });
    },
  });
}
