/**
 * The web console in real headless Chromium against a real master, minions and REST API:
 * login (and a wrong password), the minions list (the light paged listing, a grain filter,
 * full grains on click), runs of test.ping and cmd.run with each minion's return and end
 * state, a batch run, the function picker, the job view and job search, accepting a pending
 * key, an event.send tail, the schedules view, and a user whose ACL allows only test.* (no
 * way to run cmd.run; the API refuses it).
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startConsoleCluster } from '../../tools/console-cluster.js';
import { type Browser, launchBrowser, skipBrowserTests } from '../../tools/headless-chromium.js';
import type { Cluster } from '../../tools/local-cluster.js';
import { loginToken } from '../../tools/netapi-http.js';

const WAIT = 30_000;

describe.skipIf(skipBrowserTests)('console: the web console in headless Chromium', () => {
  let c: Cluster;
  let browser: Browser;
  let page: Page;
  let base = '';
  let touched = '';
  const problems: string[] = [];

  beforeAll(async () => {
    ({ cluster: c, base } = await startConsoleCluster({
      // a state file with a failing state, and a pillar secret
      states: {
        'demo.sls': 'hello:\n  cmd.run:\n    - name: echo hello\nbroken:\n  cmd.run:\n    - name: exit 4\n',
      },
      pillar: {
        'top.sls': "base:\n  '*':\n    - secrets\n",
        'secrets.sls': 'db_password: hunter2-console\n',
      },
      minions: (root) => {
        // m0 has a scheduled job for the schedules view; "run now" makes its file
        touched = join(root, 'schedule-ran');
        const schedule = { 'console-touch': { function: 'cmd.run', args: [`touch ${touched}`], hours: 24 } };
        // pend's key stays pending until the console accepts it
        return [{ id: 'm0', config: { schedule } }, { id: 'm1' }, { id: 'pend', pending: true }];
      },
    }));
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.setDefaultTimeout(WAIT);
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await c?.stop();
  });

  // a failing step leaves a screenshot of the page behind
  const shotOnFailure = (name: string) =>
    onTestFailed(async () => {
      const path = join(tmpdir(), `tsalt-console-failed-${name}.png`);
      await page?.screenshot({ path }).catch(() => undefined);
      process.stderr.write(`console test: screenshot in ${path}\n`);
    });

  const logIn = async (user: string, password: string) => {
    await page.goto(`${base}/console`);
    await page.fill('input[name=username]', user);
    await page.fill('input[name=password]', password);
    await page.click('button[type=submit]');
  };

  const run = async (target: string, fun: string, args: string, timeout = 10) => {
    // a fresh form (the hash alone changing would keep the last run on screen)
    await page.goto(`${base}/console#/jobs`);
    await page.goto(`${base}/console#/run`);
    await page.fill('input[name=target]', target);
    await page.fill('input[name=function]', fun);
    await page.fill('input[name=arguments]', args);
    await page.fill('input[name=timeout]', String(timeout));
    await page.click('form[aria-label="Run a function"] button[type=submit]');
  };

  const result = (id: string) => page.locator(`.minion-result[data-minion="${id}"]`);

  /** The job cache's jobs of `fun`, from GET /jobs. */
  const jobsOf = async (fun: string) => {
    const token = await loginToken(base, 'saltdev', 'saltdev');
    const r = await fetch(`${base}/jobs`, { headers: { 'X-Auth-Token': token, Accept: 'application/json' } });
    const jobs = ((await r.json()) as { return: [Record<string, { Function: string; Target: unknown }>] })
      .return[0];
    return Object.entries(jobs)
      .filter(([, j]) => j.Function === fun)
      .map(([jid, j]) => ({ jid, target: j.Target }));
  };

  it('serves the page with a Content-Security-Policy and no inline script', async () => {
    const r = await fetch(`${base}/console`, { headers: { Accept: 'text/html' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await r.text();
    expect(html).toContain('<script type="module" src="/console/app.js"></script>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const cfg = (await (await fetch(`${base}/console/config.json`)).json()) as { eauth: string[] };
    expect(cfg.eauth).toEqual(['file']);
  });

  it('a wrong password shows an error and logs nobody in', async () => {
    await logIn('saltdev', 'wrong');
    await expect
      .poll(() => page.locator('[role=alert]').textContent(), { timeout: WAIT })
      .toContain('Login failed');
    expect(await page.locator('nav').count()).toBe(0);
    // the eauth choice defaults to the first configured back end
    expect(await page.locator('select[name=eauth]').inputValue()).toBe('file');
  });

  it('logs in and lists the minions by id', async () => {
    await logIn('saltdev', 'saltdev');
    await page.locator('.minion-row[data-minion="m0"]').waitFor();
    await page.locator('.minion-row[data-minion="m1"]').waitFor();
    expect(await page.locator('nav .who').textContent()).toContain('saltdev');
    // full grains on click (the list has only os, osrelease and saltversion)
    await page.click('.minion-row[data-minion="m0"]');
    await expect
      .poll(() => page.locator('aside.grains pre').textContent(), { timeout: WAIT })
      .toContain('saltversion:');
    expect(await page.locator('aside.grains pre').textContent()).toContain('kernel:');
    // a grain filter on a grain the list lacks fetches that grain of every minion
    await page.fill('input[name=filter]', 'id:m1');
    await expect.poll(() => page.locator('.minion-row[data-minion]').count(), { timeout: WAIT }).toBe(1);
    expect(await page.locator('.minion-row[data-minion="m1"]').count()).toBe(1);
    await page.fill('input[name=filter]', '');
  });

  it("lists minions light and paged on request; salt-api's GET /minions is unchanged", async () => {
    const token = await loginToken(base, 'saltdev', 'saltdev');
    const h = { 'X-Auth-Token': token, Accept: 'application/json' };
    const full = (await (await fetch(`${base}/minions`, { headers: h })).json()) as Record<string, unknown>;
    expect(Object.keys(full)).toEqual(['return']);
    const grains = (full.return as [Record<string, Record<string, unknown>>])[0];
    expect(Object.keys(grains)).toEqual(['m0', 'm1']);
    expect(Object.keys(grains.m0 ?? {}).length).toBeGreaterThan(20);
    const light = (await (
      await fetch(`${base}/minions?grains=saltversion,os&offset=1&limit=1`, { headers: h })
    ).json()) as { return: [Record<string, Record<string, unknown>>]; _page: unknown };
    expect(Object.keys(light.return[0])).toEqual(['m1']);
    expect(Object.keys(light.return[0].m1 ?? {})).toEqual(['saltversion', 'os']);
    expect(light._page).toEqual({ offset: 1, limit: 1, total: 2 });
    const bad = await fetch(`${base}/minions?limit=all`, { headers: h });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('NETAPI_ERR_BAD_QUERY');
    // without a token a bad query is still only a 401
    expect((await fetch(`${base}/minions?limit=all`)).status).toBe(401);
  });

  it('runs test.ping: each minion returns', async () => {
    await run('*', 'test.ping', '');
    await expect.poll(() => result('m0').getAttribute('data-state'), { timeout: WAIT }).toBe('returned');
    await expect.poll(() => result('m1').getAttribute('data-state'), { timeout: WAIT }).toBe('returned');
    expect(await result('m0').locator('pre').textContent()).toBe('    True');
    // the pending minion is not targeted
    expect(await result('pend').count()).toBe(0);
  });

  it('runs cmd.run with CLI arguments; a non-zero exit is failed with its retcode', async () => {
    await run('m0,m1', 'cmd.run', '"echo hi from $(hostname >/dev/null; echo console)"');
    await page.selectOption('select[name=tgt_type]', 'list');
    await page.click('form[aria-label="Run a function"] button[type=submit]');
    await expect.poll(() => result('m1').getAttribute('data-state'), { timeout: WAIT }).toBe('returned');
    await expect
      .poll(() => result('m0').locator('pre').textContent(), { timeout: WAIT })
      .toBe('    hi from console');
    await run('m0', 'cmd.run', '"exit 3"');
    await expect.poll(() => result('m0').getAttribute('data-state'), { timeout: WAIT }).toBe('failed');
    expect(await result('m0').locator('.badge').textContent()).toBe('failed (retcode 3)');
  });

  it('opens the job from the run and from the jobs list', async () => {
    shotOnFailure('job');
    await run('*', 'test.arg', 'a 1 k=v');
    await expect.poll(() => result('m1').getAttribute('data-state'), { timeout: WAIT }).toBe('returned');
    const jid = (await page.locator('main p a[href^="#/jobs/"]').textContent())?.trim() ?? '';
    expect(jid).toMatch(/^\d{20}$/);
    await page.click('main p a[href^="#/jobs/"]');
    await expect
      .poll(() => page.locator('[data-field=function]').textContent())
      .toContain('test.arg a 1 k=v');
    await expect.poll(() => result('m0').getAttribute('data-state'), { timeout: WAIT }).toBe('returned');
    expect(await result('m0').locator('pre').textContent()).toContain('- a');
    await page.goto(`${base}/console#/jobs`);
    const row = page.locator(`tr[data-jid="${jid}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('saltdev');
    await row.locator('a').click();
    await page.locator('h2', { hasText: `Job ${jid}` }).waitFor();
  });

  it('runs in batches through local_batch: one job per batch, each return shown', async () => {
    shotOnFailure('batch');
    await run('m0,m1', 'test.arg', 'batched');
    await page.selectOption('select[name=tgt_type]', 'list');
    await page.fill('input[name=batch]', '1');
    expect(await page.locator('code.cli').textContent()).toBe('salt -b 1 -L m0,m1 test.arg batched');
    const before = await jobsOf('test.arg');
    await page.click('form[aria-label="Run a function"] button[type=submit]');
    await page.locator('[data-testid=batch]', { hasText: 'finished' }).waitFor();
    expect(await page.locator('[data-testid=summary]').textContent()).toMatch(/^2 returned · 0 failed/);
    expect(await result('m0').locator('pre').textContent()).toContain('- batched');
    expect(await result('m1').getAttribute('data-state')).toBe('returned');
    // batch 1 of two minions: two jobs of one minion each
    const batches = (await jobsOf('test.arg')).filter((j) => !before.some((b) => b.jid === j.jid));
    expect(batches.map((j) => j.target).sort()).toEqual([['m0'], ['m1']]);
  });

  it('picks a function from those the minions offer, with its argument spec and help', async () => {
    await page.goto(`${base}/console#/jobs`);
    await page.goto(`${base}/console#/run`);
    await page.fill('input[name=target]', 'm0');
    await page.click('button:has-text("Functions")');
    await expect
      .poll(() => page.locator('[data-testid=functions-note]').textContent(), { timeout: 2 * WAIT })
      .toMatch(/^\d{3,} functions on 1 minions$/);
    expect(await page.locator('datalist#functions option[value="test.echo"]').count()).toBe(1);
    await page.fill('input[name=function]', 'test.echo');
    await page.click('button:has-text("Doc")');
    await expect
      .poll(() => page.locator('[data-testid=argspec]').textContent(), { timeout: 2 * WAIT })
      .toBe('test.echo(text)');
    expect(await page.locator('section[aria-label=Documentation] pre').textContent()).toContain('test.echo');
  });

  it('searches jobs by function, user and date', async () => {
    shotOnFailure('jobs-search');
    await page.goto(`${base}/console#/jobs`);
    const rows = page.locator('table.jobs tbody tr');
    await rows.first().waitFor();
    await page.fill('input[name=search-fun]', 'test.arg');
    await expect.poll(() => rows.count(), { timeout: WAIT }).toBeGreaterThanOrEqual(3);
    for (const text of await rows.locator('td:nth-child(2)').allTextContents())
      expect(text).toMatch(/^test\.arg /);
    await page.fill('input[name=search-user]', 'nobody');
    await expect.poll(() => rows.count(), { timeout: WAIT }).toBe(0);
    await page.fill('input[name=search-user]', 'saltdev');
    // the date range: the day of the newest job, from its jid
    const jid = (await rows.first().getAttribute('data-jid')) ?? '';
    const day = `${jid.slice(0, 4)}-${jid.slice(4, 6)}-${jid.slice(6, 8)}`;
    await page.fill('input[name=search-from]', day);
    await page.fill('input[name=search-to]', day);
    await expect.poll(() => rows.count(), { timeout: WAIT }).toBeGreaterThanOrEqual(3);
    const next = new Date(`${day}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    await page.fill('input[name=search-from]', next.toISOString().slice(0, 10));
    await page.fill('input[name=search-to]', '');
    await expect.poll(() => rows.count(), { timeout: WAIT }).toBe(0);
  });

  it('accepts a pending key after a confirmation', async () => {
    await page.goto(`${base}/console#/keys`);
    const pending = page.locator('[data-group=minions_pre] tr[data-key="pend"]');
    await pending.waitFor();
    expect(await page.locator('[data-group=minions] tr[data-key="m0"] .finger').textContent()).toMatch(
      /^([0-9a-f]{2}:){31}[0-9a-f]{2}$/,
    );
    await pending.locator('button[data-action=accept]').click();
    // nothing happens before the confirmation
    expect((await c.saltKey(['-l', 'pre'])).stdout).toContain('pend');
    await pending.locator('button', { hasText: 'Confirm accept' }).click();
    await page.locator('[data-group=minions] tr[data-key="pend"]').waitFor();
    await c.minions.get('pend')?.waitFor('salt-minion started', 60_000);
  });

  it('tails an event fired with event.send, with a tag filter, pause and resume', async () => {
    await page.goto(`${base}/console#/events`);
    await page.fill('input[name=tag]', 'console/');
    const token = await loginToken(base, 'saltdev', 'saltdev');
    const fire = (tag: string) =>
      fetch(`${base}/`, {
        method: 'POST',
        headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({
          client: 'local',
          tgt: 'm0',
          fun: 'event.send',
          arg: [tag, { __kwarg__: true, n: 1 }],
        }),
      });
    // the stream is open once the page subscribed; an event before that would be lost
    await expect
      .poll(
        async () => {
          await fire('console/test/one');
          return page.locator('li[data-tag="console/test/one"]').count();
        },
        { timeout: WAIT, interval: 1000 },
      )
      .toBeGreaterThan(0);
    // the filter hides other tags (the job's own events)
    expect(await page.locator('li[data-tag^="salt/job/"]').count()).toBe(0);
    await page.click('button:has-text("Pause")');
    await fire('console/test/two');
    await page.locator('button', { hasText: /Resume \([1-9]/ }).waitFor();
    expect(await page.locator('li[data-tag="console/test/two"]').count()).toBe(0);
    await page.click('button:has-text("Resume")');
    await page.locator('li[data-tag="console/test/two"]').first().waitFor();
  });

  it('applies an SLS from the states page: the highstate view lists the failed state first', async () => {
    await page.goto(`${base}/console#/states`);
    await page.fill('form[aria-label="Apply states"] input[name=target]', 'm0');
    await page.fill('input[name=sls]', 'demo');
    await page.uncheck('input[name=test]');
    await page.click('form[aria-label="Apply states"] button[type=submit]');
    await expect.poll(() => result('m0').getAttribute('data-state'), { timeout: WAIT }).toBe('failed');
    const rows = result('m0').locator('.highstate tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).getAttribute('class')).toBe('failed');
    expect(await rows.nth(0).locator('td').nth(1).textContent()).toBe('broken');
    expect(await rows.nth(1).locator('td').nth(1).textContent()).toBe('hello');
    expect(await result('m0').locator('.highstate .summary').textContent()).toContain('Failed: 1');
  });

  it("shows a minion's pillar obfuscated until a key is revealed", async () => {
    await page.goto(`${base}/console#/minions`);
    await page.click('.minion-row[data-minion="m0"]');
    await page.click('aside button[role=tab]:has-text("Pillar")');
    await page.locator('dt[data-pillar="db_password"]').waitFor();
    expect(await page.locator('aside').textContent()).not.toContain('hunter2-console');
    await page.click('button[aria-label="Reveal db_password"]');
    await expect
      .poll(() => page.locator('aside.grains dd pre').first().textContent())
      .toBe('hunter2-console');
  });

  it('runs a runner from the runners page', async () => {
    await page.goto(`${base}/console#/runners`);
    await page.selectOption('select[name=runner]', 'manage.present');
    await page.click('form[aria-label="Run a runner"] button[type=submit]');
    await expect
      .poll(() => page.locator('[data-testid=runner-output]').textContent(), { timeout: WAIT })
      .toContain('- m0');
  });

  it("lists a minion's schedule, disables and enables a job, and runs it now", async () => {
    shotOnFailure('schedules');
    await page.goto(`${base}/console#/schedules`);
    await page.fill('form[aria-label="List schedules"] input[name=target]', 'm0');
    await page.click('form[aria-label="List schedules"] button[type=submit]');
    const row = page.locator('tr[data-minion="m0"][data-job="console-touch"]');
    await row.waitFor();
    expect(await row.getAttribute('data-enabled')).toBe('true');
    expect(await row.locator('td').nth(3).textContent()).toBe('every 24 hours');
    await row.locator('button[data-action=disable]').click();
    await expect.poll(() => row.getAttribute('data-enabled'), { timeout: WAIT }).toBe('false');
    await row.locator('button[data-action=enable]').click();
    await expect.poll(() => row.getAttribute('data-enabled'), { timeout: WAIT }).toBe('true');
    expect(existsSync(touched)).toBe(false);
    await row.locator('button[data-action=run]').click();
    await expect.poll(() => existsSync(touched), { timeout: WAIT }).toBe(true);
  });

  it('a minion that is stopped ends as not connected', async () => {
    await c.minions.get('m1')?.stop();
    const token = await loginToken(base, 'saltdev', 'saltdev');
    await expect
      .poll(
        async () => {
          const r = await fetch(`${base}/`, {
            method: 'POST',
            headers: {
              'X-Auth-Token': token,
              'Content-Type': 'application/json',
              Accept: 'application/json',
            },
            body: JSON.stringify({ client: 'runner', fun: 'manage.present' }),
          });
          return ((await r.json()) as { return: [string[]] }).return[0];
        },
        { timeout: WAIT, interval: 500 },
      )
      .not.toContain('m1');
    await run('m0,m1', 'test.ping', '', 3);
    await page.selectOption('select[name=tgt_type]', 'list');
    await page.click('form[aria-label="Run a function"] button[type=submit]');
    await expect.poll(() => result('m1').getAttribute('data-state'), { timeout: WAIT }).toBe('not_connected');
    expect(await result('m0').getAttribute('data-state')).toBe('returned');
  });

  it('a user whose ACL allows only test.* sees no way to run cmd.run, and the API refuses it', async () => {
    await page.click('nav button:has-text("Log out")');
    await logIn('limited', 'pw');
    await page.locator('nav').waitFor();
    expect(await page.locator('nav a[href="#/keys"]').count()).toBe(0);
    expect(await page.locator('nav a[href="#/jobs"]').count()).toBe(0);
    expect(await page.locator('nav a[href="#/schedules"]').count()).toBe(0);
    await page.goto(`${base}/console#/run`);
    await page.fill('input[name=function]', 'cmd.run');
    await page.locator('[role=alert]', { hasText: 'does not allow cmd.run' }).waitFor();
    expect(await page.locator('form[aria-label="Run a function"] button[type=submit]').count()).toBe(0);
    await page.fill('input[name=function]', 'test.ping');
    expect(await page.locator('form[aria-label="Run a function"] button[type=submit]').count()).toBe(1);
    // the API refuses it whatever the page shows
    const status = await page.evaluate(async () => {
      // runs in the page, where sessionStorage is a global
      const store = (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } })
        .sessionStorage;
      const s = JSON.parse(store.getItem('tsalt-console-session') ?? '{}') as { token?: string };
      const r = await fetch('/', {
        method: 'POST',
        headers: {
          'X-Auth-Token': s.token ?? '',
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        body: JSON.stringify({ client: 'local', tgt: '*', fun: 'cmd.run', arg: ['id'] }),
      });
      return r.status;
    });
    expect(status).toBe(403);
  });

  it('a revoked token sends the page back to the login form', async () => {
    await page.evaluate(async () => {
      const store = (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } })
        .sessionStorage;
      const s = JSON.parse(store.getItem('tsalt-console-session') ?? '{}') as { token?: string };
      await fetch('/logout', { method: 'POST', headers: { 'X-Auth-Token': s.token ?? '' } });
    });
    // the next call the page makes (the jobs page asks GET /jobs) is refused: back to the login form
    await page.goto(`${base}/console#/jobs`);
    await page.locator('input[name=username]').waitFor();
    expect(await page.locator('nav').count()).toBe(0);
  });

  it('broke no Content-Security-Policy rule and threw nothing', () => {
    // the wrong password's and the revoked token's 401s and the refused cmd.run's 403 are the
    // browser's only console errors
    expect(problems.filter((p) => !/status of (401|403)/.test(p))).toEqual([]);
    expect(problems.filter((p) => /status of 403/.test(p))).toHaveLength(1);
  });
});
