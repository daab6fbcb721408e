/**
 * `salt.wait_for_event` in a real orchestration (`salt-run state.orchestrate`): it blocks until
 * events matching its tag have named every id of `id_list` (as the data's `id`, or in a list
 * under another `event_id`), fired here with `salt-run event.send`, and fails with Salt's
 * "Timeout value reached." when they do not come.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

type Entry = { result: boolean | null; comment: string; changes: Record<string, unknown> };

describe('salt.wait_for_event', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const srv = join(c.root, 'srv', 'salt');
  const orchestrate = async (sls: string, ...extra: string[]) => {
    const r = await c.saltRun(['state.orchestrate', sls, '--out', 'json', ...extra], 120_000);
    const out = JSON.parse(r.stdout) as { data: Record<string, Record<string, Entry>> };
    return Object.values(out.data[`${hostname()}_master`] as Record<string, Entry>)[0] as Entry;
  };

  beforeAll(async () => {
    mkdirSync(join(srv, 'orch'), { recursive: true });
    writeFileSync(
      join(srv, 'orch', 'wait.sls'),
      'built:\n  salt.wait_for_event:\n    - name: tsalt/test/built/*\n    - id_list: [web1, web2, db1]\n    - timeout: 60\n',
    );
    writeFileSync(
      join(srv, 'orch', 'short.sls'),
      'never:\n  salt.wait_for_event:\n    - name: tsalt/test/never\n    - id_list: [x]\n    - timeout: 1\n',
    );
    Object.assign(master, { file_roots: { base: [srv] } });
    await c.startMaster();
  }, 60_000);
  afterAll(() => c.stop());

  it('returns once every id has been seen, listing them in order', async () => {
    const run = orchestrate('orch.wait');
    // the orchestration subscribes first: keep sending until it has returned
    let done = false;
    void run.finally(() => {
      done = true;
    });
    for (let i = 0; i < 100 && !done; i++) {
      await c.saltRun(['event.send', 'tsalt/test/other', '{"id": "web1"}']);
      await c.saltRun(['event.send', 'tsalt/test/built/1', '{"id": "web1"}']);
      await c.saltRun(['event.send', 'tsalt/test/built/2', '{"id": "nobody"}']);
      await c.saltRun([
        'event.send',
        'tsalt/test/built/3',
        '{"hosts": ["db1"], "data": {"id": ["web2", "db1"]}}',
      ]);
      await new Promise((r) => setTimeout(r, 200));
    }
    const ret = await run;
    expect(ret.result).toBe(true);
    expect(ret.comment).toMatch(/^All events seen in \d+\.\d+ seconds\.$/);
    expect(ret.changes).toEqual({ minions_seen: ['web1', 'web2', 'db1'] });
  }, 120_000);

  it("fails with Salt's comment when the events do not come, and only says what it would do under test", async () => {
    await expect(orchestrate('orch.short')).resolves.toMatchObject({
      result: false,
      comment: 'Timeout value reached.',
      changes: {},
    });
    await expect(orchestrate('orch.short', 'test=True')).resolves.toMatchObject({
      result: null,
      comment: "Orchestration would wait for event 'tsalt/test/never'",
    });
  }, 60_000);
});
