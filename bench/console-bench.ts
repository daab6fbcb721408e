/**
 * The web console's figures against a swarm (tools/swarm): first contentful paint and time to
 * interactive of the minions page (every swarm minion listed), and the time from Run to the
 * last of the swarm's `test.ping` returns on screen, in headless Chromium.
 * `npm run build && node dist/bench/console-bench.js [--count 1000] [--key-pool 1000]`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { freePort } from '../kernel/process/ports.js';
import { launchBrowser } from '../tools/headless-chromium.js';
import { Cluster } from '../tools/local-cluster.js';
import { loginToken, waitForApi } from '../tools/netapi-http.js';
import { defaultKeysDir, ensureKeys } from '../tools/swarm/key-cache.js';
import { startSwarm } from '../tools/swarm/swarm-runner.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Reloads the minions page; FCP, the time until the first minion row shows and until all
 * `count` minions are listed, ms.
 */
async function loadMinions(page: Page, count: number): Promise<{ fcp: number; first: number; tti: number }> {
  await page.reload();
  // in the page (a string: this file is compiled without the DOM's types)
  const [first, tti] = await page.evaluate<[number, number]>(`new Promise((resolve) => {
    const want = '${count} of ${count}';
    let first = -1;
    const poll = () => {
      const row = document.querySelector('.minion-row[data-minion]');
      if (row && first < 0) first = performance.now();
      const hit = [...document.querySelectorAll('.toolbar span')].some((s) => s.textContent === want);
      if (hit && row) resolve([first, performance.now()]);
      else requestAnimationFrame(poll);
    };
    poll();
  })`);
  const fcp = await page.evaluate<number>(
    `performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1`,
  );
  return { fcp, first, tti };
}

/** `GET /minions` as salt-api answers it and in the console's light pages: ms and bytes. */
async function apiListing(base: string, headers: Record<string, string>, count: number) {
  const time = async (paths: string[]) => {
    const t0 = performance.now();
    let bytes = 0;
    for (const p of paths)
      bytes += (await (await fetch(`${base}${p}`, { headers })).arrayBuffer()).byteLength;
    return { ms: performance.now() - t0, bytes };
  };
  const pages: string[] = [];
  for (let o = 0; o < count; o += 2000)
    pages.push(`/minions?grains=os,osrelease,saltversion&offset=${o}&limit=2000`);
  return { full: await time(['/minions']), light: await time(pages) };
}

/**
 * Clicks Run (test.ping on `*`) and resolves when the run is done (no minion waiting): the ms
 * from the click and the summary line (a run with a lost return says so rather than hang).
 */
async function runUntilDone(page: Page): Promise<{ ms: number; summary: string }> {
  await page.goto(page.url().replace(/#.*$/, '#/jobs'));
  await page.goto(page.url().replace(/#.*$/, '#/run'));
  await page.fill('input[name=target]', '*');
  await page.fill('input[name=function]', 'test.ping');
  await page.fill('input[name=timeout]', '120');
  return page.evaluate<{ ms: number; summary: string }>(`new Promise((resolve) => {
    const button = document.querySelector('form[aria-label="Run a function"] button[type=submit]');
    const t0 = performance.now();
    button.click();
    const poll = () => {
      const s = document.querySelector('[data-testid=summary]')?.textContent ?? '';
      if (s && !s.includes('waiting')) resolve({ ms: performance.now() - t0, summary: s });
      else requestAnimationFrame(poll);
    };
    poll();
  })`);
}

async function main(): Promise<void> {
  const count = arg('--count', 1000);
  const keyPool = arg('--key-pool', Math.min(count, 1000));
  const keysDir = defaultKeysDir();
  await ensureKeys(keysDir, keyPool);
  const port = await freePort();
  const master: Record<string, unknown> = {
    rest_cherrypy: { port, host: '127.0.0.1', disable_ssl: true, rate_limit: 0 },
    netapi_enable_clients: ['local', 'local_async', 'runner', 'wheel'],
    auto_accept: true,
    worker_threads: 4,
  };
  const c = new Cluster({ master, quiet: true, productionLogs: true });
  const users = join(c.root, 'users.txt');
  writeFileSync(users, 'saltdev:saltdev\n');
  master.external_auth = { file: { '^filename': users, saltdev: ['.*', '@runner', '@wheel', '@jobs'] } };
  await c.startMaster();
  const base = `http://127.0.0.1:${port}`;
  await waitForApi(base);
  const swarm = await startSwarm({
    count,
    masterHost: '127.0.0.1',
    retPort: c.retPort,
    keysDir,
    keyPool,
    idPrefix: 'swarm-',
  });
  const browser = await launchBrowser({ width: 1280, height: 800 });
  try {
    swarm.go();
    await swarm.waitFor((s) => s.authenticated >= count, 30 * 60_000);
    const token = await loginToken(base, 'saltdev', 'saltdev');
    const headers = { 'X-Auth-Token': token, Accept: 'application/json' };
    await until('every minion present', 10 * 60_000, async () => {
      const r = await fetch(`${base}/`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ client: 'runner', fun: 'manage.present' }),
      });
      return ((await r.json()) as { return: [string[]] }).return[0].length >= count;
    });
    await until('every minion in the grains cache', 10 * 60_000, async () => {
      const r = await fetch(`${base}/minions`, { headers });
      return Object.keys(((await r.json()) as { return: [object] }).return[0]).length >= count;
    });
    const page = await browser.context.newPage();
    page.setDefaultTimeout(600_000);
    await page.goto(`${base}/console`);
    await page.fill('input[name=username]', 'saltdev');
    await page.fill('input[name=password]', 'saltdev');
    await page.click('button[type=submit]');
    await page.locator('.minion-row[data-minion]').first().waitFor();
    const f = (n: number) => `${Math.round(n)} ms`;
    const say = (line: string) => process.stdout.write(`${line}\n`);
    for (let i = 0; i < 3; i++) {
      const a = await apiListing(base, headers, count);
      say(
        `GET /minions (salt-api's): ${f(a.full.ms)}, ${a.full.bytes} B; light pages: ${f(a.light.ms)}, ${a.light.bytes} B`,
      );
    }
    const loads = [];
    for (let i = 0; i < 3; i++) {
      loads.push(await loadMinions(page, count));
      const l = loads[loads.length - 1];
      if (l) say(`minions page: FCP ${f(l.fcp)}, first row ${f(l.first)}, all ${count} listed ${f(l.tti)}`);
    }
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const r = await runUntilDone(page);
      say(`run: ${f(r.ms)}, ${r.summary}`);
      if (r.summary.startsWith(`${count} returned`)) runs.push(r.ms);
    }
    process.stdout.write(
      `console, ${count} swarm minions: first contentful paint ${f(median(loads.map((l) => l.fcp)))}, ` +
        `first row ${f(median(loads.map((l) => l.first)))}, ` +
        `all ${count} listed (interactive) ${f(median(loads.map((l) => l.tti)))}, ` +
        `Run to the last of ${count} returns on screen ${f(median(runs))} (medians of 3: ${runs.map(f).join(', ')})\n`,
    );
  } finally {
    await browser.close();
    await swarm.stop();
    await c.stop();
  }
}

await main();
