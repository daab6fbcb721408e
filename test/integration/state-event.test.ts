import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

describe('salt-run state.event: the bus as it goes by', () => {
  const c = new Cluster();
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('m1');
  });
  afterAll(() => c.stop());

  it("prints matching events as Salt's `<tag>\\t<json>` lines and stops after count", async () => {
    const watching = c.saltRun(['state.event', 'salt/job/*/ret/*', 'count=1'], 30_000);
    await new Promise((r) => setTimeout(r, 2000));
    const job = await c.saltJson(['m1', 'test.ping']);
    expect(job.data).toEqual({ m1: true });
    const r = await watching;
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const [tag, json] = lines[0]!.split('\t');
    expect(tag).toMatch(/^salt\/job\/\d{20}\/ret\/m1$/);
    expect(json).toMatch(/^\{"cmd": "_return", "id": "m1", /);
    expect(JSON.parse(json!)).toMatchObject({ id: 'm1', fun: 'test.ping', return: true });
  });

  it('pretty=True indents and sorts; a regular expression selects too', async () => {
    const watching = c.saltRun(['state.event', 'salt/job/[0-9]+/new', 'count=1', 'pretty=True'], 30_000);
    await new Promise((r) => setTimeout(r, 2000));
    await c.saltJson(['m1', 'test.ping']);
    const r = await watching;
    expect(r.stdout).toMatch(/^salt\/job\/\d{20}\/new\t\{\n {4}"_stamp": /);
  });
});
