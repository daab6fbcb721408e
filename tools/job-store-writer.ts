/**
 * A child process for the job store's crash and concurrency tests (test/returners/job-store.test.ts
 * runs the compiled dist/tools/job-store-writer.js):
 * `node dist/tools/job-store-writer.js <cachedir> <prefix> <jobs> [shared-jid...]` writes jobs of 10 returns and
 * prints `ack <jid> <minion>` after each return is acknowledged (`dup ...` when refused as a
 * duplicate), then `done`.
 * With shared jids it writes a return from `<prefix>-m<k>` for each of them instead.
 */
import { silentLogger } from '../kernel/log.js';
import jobStore, { jobStoreOptions } from '../returners/job-store/index.js';

const [cachedir, prefix, jobsArg, ...shared] = process.argv.slice(2);
const ctx = {
  opts: { cachedir: String(cachedir) },
  log: silentLogger(),
  options: jobStoreOptions.parse({ busy_timeout: 20_000 }),
};
const write = (line: string) => process.stdout.write(`${line}\n`);

async function job(jid: string): Promise<void> {
  const minions = Array.from({ length: 10 }, (_, k) => `${prefix}-m${k}`);
  await Promise.all(
    minions.map(async (id) => {
      const stored = jobStore.returner(
        {
          id,
          jid,
          fun: 'test.echo',
          fun_args: [],
          return: { id, blob: Buffer.alloc(64, 7) },
          retcode: 0,
          success: true,
        },
        ctx,
      );
      const code = await stored.then(
        () => 'ack',
        (err: { code?: string }) =>
          err.code === 'SALT_ERR_JOB_DUPLICATE_RETURN' ? 'dup' : Promise.reject(err),
      );
      write(`${code} ${jid} ${id}`);
    }),
  );
}

if (shared.length) {
  for (const jid of shared) await job(jid);
} else {
  for (let i = 0; i < Number(jobsArg); i++) {
    const jid = await jobStore.prepJid!(ctx);
    write(`jid ${jid}`);
    await jobStore.saveLoad!(
      jid,
      { cmd: 'publish', tgt: '*', fun: 'test.echo', arg: [i], tgt_type: 'glob', ret: '', jid },
      [],
      ctx,
    );
    await job(jid);
  }
}
await jobStore.close!(ctx);
write('done');
