/**
 * `http.query` and `http.wait_for_successful_query` states through `salt-call --local
 * state.apply` against a loopback HTTP server, with and without test=True. The comments are
 * what Salt 3006.18 answered for the same SLS against the same kind of server (27 of 28 states
 * identical; the 28th, test=True with `test_url`, is deliberate: README).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { type FixtureServer, startFixtureServer } from '../support/http-fixture-server.js';
import { localApply } from '../support/local-apply.js';

const SLS = `
{% set u = pillar.get('base_url', '') %}
match_ok:
  http.query:
    - name: {{ u }}/text
    - match: ell
match_no:
  http.query:
    - name: {{ u }}/text
    - match: nothere
pcre_ok:
  http.query:
    - name: {{ u }}/text
    - match: 'h[a-z]+o\\s'
    - match_type: pcre
status_404:
  http.query:
    - name: {{ u }}/missing
    - status: 200
status_list:
  http.query:
    - name: {{ u }}/missing
    - status: [200, 404]
    - status_type: list
status_list_no:
  http.query:
    - name: {{ u }}/text
    - status: [301, 404]
    - status_type: list
status_pcre:
  http.query:
    - name: {{ u }}/text
    - status: '^2\\d\\d$'
    - status_type: pcre
both:
  http.query:
    - name: {{ u }}/text
    - match: hello
    - status: 404
neither:
  http.query:
    - name: {{ u }}/text
wait_ok:
  http.wait_for_successful_query:
    - name: {{ u }}/text
    - status: 200
    - wait_for: 3
wait_fail:
  http.wait_for_successful_query:
    - name: {{ u }}/missing
    - status: 200
    - wait_for: 1
    - request_interval: 0.4
`;

describe('http states through salt-call --local', () => {
  const c = new Cluster();
  const srv = join(c.root, 'srv');
  const run = localApply(c.root, 'http1', srv);
  let server: FixtureServer;
  const apply = (...extra: string[]) =>
    run('h', `pillar={"base_url": "${server.url.replace(/\/$/, '')}"}`, ...extra);

  beforeAll(async () => {
    server = await startFixtureServer();
    mkdirSync(srv, { recursive: true });
    writeFileSync(join(srv, 'h.sls'), SLS);
  });
  afterAll(async () => {
    await server?.close();
    await c.stop();
  });

  it("checks text and status with Salt's comments", async () => {
    const r = await apply();
    const said = (id: string) => [r[id]?.result, r[id]?.comment];
    expect(said('match_ok')).toEqual([true, 'Match text "ell" was found.']);
    expect(said('match_no')).toEqual([false, 'Match text "nothere" was not found.']);
    expect(said('pcre_ok')).toEqual([true, 'Match pattern "h[a-z]+o\\s" was found.']);
    expect(said('status_404')).toEqual([false, 'Status 200 was not found.']);
    expect(said('status_list')).toEqual([true, 'Status 404 was found.']);
    expect(said('status_list_no')).toEqual([false, 'Statuses [301, 404] were not found.']);
    expect(said('status_pcre')).toEqual([true, 'Status pattern "^2\\d\\d$" was found.']);
    expect(said('both')).toEqual([false, 'Match text "hello" was found. Status 404 was not found.']);
    expect(said('neither')).toEqual([
      false,
      ' Either match text (match) or a status code (status) is required.',
    ]);
    expect(said('wait_ok')).toEqual([true, 'Status 200 was found.']);
    expect(said('wait_fail')).toEqual([false, 'Status 200 was not found.']);
    expect(r.match_ok?.data).toMatchObject({ status: 200, text: 'hello\n' });
  }, 60_000);

  it('marks test mode in the comment', async () => {
    // without test_url, http.query answers {} under test=True: nothing is found
    const r = await apply('test=True');
    expect([r.match_ok?.result, r.match_ok?.comment]).toEqual([
      null,
      'Match text "ell" was not found. (TEST MODE)',
    ]);
    expect(r.status_404?.comment).toBe('Status 200 was not found. (TEST MODE)');
  }, 60_000);
});
