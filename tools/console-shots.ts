/**
 * Regenerates docs/console.md and its screenshots (docs/console/*.png): starts a throwaway
 * cluster (a master with the REST API, three minions, one of them pending), drives the
 * console in headless Chromium through each page, and writes the page with the bundle's
 * sizes. `npm run build && node dist/tools/console-shots.js`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { startConsoleCluster } from './console-cluster.js';
import { launchBrowser } from './headless-chromium.js';
import { REPO } from './local-cluster.js';

const DOCS = join(REPO, 'docs');

/** The last figures of bench/console-bench.ts (update them when it is run again). */
const FIGURES = `| minions | listing | first contentful paint | first row | all listed | Run to the last return counted |
| ---: | --- | ---: | ---: | ---: | ---: |
| 1,000 | full grains (before) | 112 ms | | 2.4 s | 2.3 s |
| 1,000 | light, paged | 164 ms | 451 ms | 0.45 s | 1.5 s |
| 10,000 | full grains (before) | 112 ms | | 13.9 s | 25.5 s |
| 10,000 | light, paged | 116 ms | 344 ms | 1.5 s | 13.6 s |

\`GET /minions\` itself at 10,000 (three requests each): salt-api's answer, every grain of every
minion, 44.6 MB in 7.8–9.1 s; the console's five light pages, 0.77 MB in 3.0 s when the API
process first reads the cache, 0.4–0.9 s after (each minion's picked grains are kept until its
\`data.p\` changes).`;
const SHOTS = join(DOCS, 'console');

interface Shot {
  readonly file: string;
  readonly caption: string;
}

function bundleSizes(): { name: string; bytes: number; gzip: number }[] {
  const dir = join(REPO, 'dist', 'plugins', 'console', 'assets');
  return ['index.html', 'app.js', 'app.css'].map((name) => {
    const body = readFileSync(join(dir, name));
    return { name, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
}

async function drive(page: Page, base: string): Promise<Shot[]> {
  const shots: Shot[] = [];
  const shot = async (file: string, caption: string) => {
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, file) });
    shots.push({ file, caption });
  };
  await page.goto(`${base}/console`);
  await page.fill('input[name=username]', 'saltdev');
  await shot(
    'login.png',
    'Login: username, password and the eauth back end (the first configured one by default).',
  );
  await page.fill('input[name=password]', 'saltdev');
  await page.click('button[type=submit]');
  await page.locator('.minion-row[data-minion="web-01"]').waitFor();
  await page.click('.minion-row[data-minion="web-01"]');
  await page.locator('aside.grains').waitFor();
  await shot(
    'minions.png',
    'Minions: id, os, Salt version, presence and key state; a filter by id or `grain:glob`; grains on click.',
  );
  await page.goto(`${base}/console#/run`);
  await page.fill('input[name=target]', '*');
  await page.fill('input[name=function]', 'cmd.run');
  await page.fill('input[name=arguments]', '"uname -s; exit 2" shell=/bin/sh');
  await page.click('form[aria-label="Run a function"] button[type=submit]');
  await page.locator('.minion-result[data-state="failed"]').first().waitFor();
  await page.locator('.minion-result[data-state="waiting"]').first().waitFor({ state: 'detached' });
  await shot(
    'run.png',
    "Run: each minion's return as it arrives, with its end state (here a non-zero exit: failed with its retcode).",
  );
  await page.goto(`${base}/console#/jobs`);
  await page.goto(`${base}/console#/run`);
  await page.fill('input[name=target]', '*');
  await page.click('button:has-text("Functions")');
  await page.locator('[data-testid=functions-note]', { hasText: 'functions on' }).waitFor();
  await page.fill('input[name=function]', 'test.arg');
  await page.fill('input[name=arguments]', 'release 1.4.2 check=True');
  await page.fill('input[name=batch]', '50%');
  await page.click('button:has-text("Doc")');
  await page.locator('[data-testid=argspec]', { hasText: 'test.arg(' }).waitFor();
  await page.click('form[aria-label="Run a function"] button[type=submit]');
  await page.locator('[data-testid=batch]', { hasText: 'finished' }).waitFor();
  await shot(
    'run-batch.png',
    "Run in batches (`salt -b 50%`, the API's `local_batch`): the function picker (every function the target offers), the chosen function's argument spec and `sys.doc`, each batch's returns as they arrive.",
  );
  await page.goto(`${base}/console#/jobs`);
  await page.locator('tr[data-jid]').first().waitFor();
  await page.click('tr[data-jid] a');
  await page.locator('[data-field=function]').waitFor();
  await shot(
    'job.png',
    'A job: its function, target, user and start, every minion\'s return, and "run again".',
  );
  await page.goto(`${base}/console#/jobs`);
  await page.locator('tr[data-jid]').first().waitFor();
  await page.fill('input[name=search-fun]', 'cmd.*');
  await page.fill('input[name=search-user]', 'saltdev');
  await shot(
    'jobs.png',
    'Jobs: recent jobs, newest first, searched by function, target and user (text or glob) and by date.',
  );
  await page.goto(`${base}/console#/schedules`);
  await page.click('form[aria-label="List schedules"] button[type=submit]');
  await page.locator('tr[data-job="backup"]').waitFor();
  await page.click('tr[data-job="logrotate"] button[data-action=disable]');
  await page.locator('tr[data-job="logrotate"][data-enabled="false"]').waitFor();
  await shot(
    'schedules.png',
    "Schedules: the minions' scheduled jobs (`schedule.list`), each enabled or disabled and run now on its minion.",
  );
  await page.goto(`${base}/console#/states`);
  await page.fill('form[aria-label="Apply states"] input[name=target]', 'web-01');
  await page.fill('input[name=sls]', 'demo');
  await page.uncheck('input[name=test]');
  await page.click('form[aria-label="Apply states"] button[type=submit]');
  await page.locator('.minion-result[data-minion="web-01"] .highstate').waitFor();
  await shot(
    'states.png',
    'States: an SLS applied from the States page; the highstate view puts failed states first, with comments and changes.',
  );
  await page.goto(`${base}/console#/minions`);
  await page.click('.minion-row[data-minion="db-01"]');
  await page.click('aside button[role=tab]:has-text("Pillar")');
  await page.locator('dt[data-pillar="db_password"]').waitFor();
  await page.click('button[aria-label="Reveal app"]');
  await shot('pillar.png', 'Pillar: obfuscated by default, revealed one key at a time.');
  await page.goto(`${base}/console#/keys`);
  await page.locator('[data-group=minions_pre] tr[data-key="pending-01"]').waitFor();
  await page.click('[data-group=minions_pre] tr[data-key="pending-01"] button[data-action=accept]');
  await shot(
    'keys.png',
    'Keys: pending, accepted, rejected and denied with fingerprints; every action asks for a confirmation.',
  );
  await page.click('button:has-text("Cancel")');
  await page.goto(`${base}/console#/run`);
  await page.fill('input[name=function]', 'event.send');
  await page.fill('input[name=arguments]', 'myco/deploy/done version=1.4.2');
  await page.click('form[aria-label="Run a function"] button[type=submit]');
  await page.locator('.minion-result[data-state="returned"]').first().waitFor();
  await page.goto(`${base}/console#/events`);
  await page.fill('input[name=tag]', 'myco/*');
  await page.click('.events li summary');
  await shot('events.png', 'Events: the live bus, filtered by tag (text or glob), with pause and resume.');
  await page.click('nav button[aria-label="Toggle dark mode"]');
  await page.goto(`${base}/console#/minions`);
  await page.locator('.minion-row[data-minion="web-01"]').waitFor();
  await shot('minions-dark.png', "Dark theme (the system's by default; the choice is remembered).");
  await page.click('nav button[aria-label="Toggle dark mode"]');
  await page.click('nav button:has-text("Log out")');
  await page.fill('input[name=username]', 'limited');
  await page.fill('input[name=password]', 'pw');
  await page.click('button[type=submit]');
  await page.locator('nav').waitFor();
  await page.goto(`${base}/console#/run`);
  await page.fill('input[name=function]', 'cmd.run');
  await shot(
    'acl.png',
    'A user whose ACL allows only `test.*`: no Run button for `cmd.run`, no Jobs or Keys pages (the API refuses them anyway).',
  );
  return shots;
}

function page(shots: readonly Shot[], sizes: ReturnType<typeof bundleSizes>): string {
  const total = sizes.reduce((n, f) => n + f.gzip, 0);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  return `# The web console

<!-- Generated by tools/console-shots.ts (npm run build && node dist/tools/console-shots.js); edit the script, not this page. -->

tsalt's REST API serves a web console at \`/console\` on its own port: no extra install, no
process of its own. It is a \`netapi.routes\` plugin (plugins/console) the master applies with
the REST API; \`console: False\` in the \`rest_cherrypy\` (or \`rest_tornado\`) block turns it off.

\`\`\`yaml
rest_cherrypy:
  port: 8000
  ssl_crt: /etc/pki/tls/certs/localhost.crt
  ssl_key: /etc/pki/tls/certs/localhost.key
  # console: False
\`\`\`

Then open \`https://<master>:8000/console\` and log in with an eauth user (\`external_auth\`).

## How it works

- The front end (plugins/console/web: Preact and htm) is bundled by esbuild at build time into
  \`dist/plugins/console/assets/\` and shipped in the npm package. No CDN, no inline script:
  every page carries a Content-Security-Policy (\`default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-ancestors 'none'\`, ...).
  It works offline.
- It uses the API's own endpoints with the user's token: \`POST /login\` (the eauth back ends
  are listed by \`GET /console/config.json\`, which names them and nothing else), \`GET /minions\`,
  \`GET /jobs\`, the wheel client for keys, \`GET /events\` (server-sent events) and \`POST /\`
  (\`local_async\`, \`local_batch\`, \`local\`) for runs.
- The minions list asks for the light, paged form of \`GET /minions\`:
  \`?grains=os,osrelease,saltversion&offset=0&limit=2000\` answers only those grains, one page of
  the sorted accepted ids at a time, with \`_page: {offset, limit, total}\` beside \`return\`.
  Without these parameters \`GET /minions\` answers what salt-api answers (every grain of every
  minion), so pepper and SaltGUI see no change. A minion's full grains are fetched on click
  (\`GET /minions/<id>\`); a \`grain:glob\` filter on a grain the list lacks fetches that one
  grain of every minion. The list renders only the rows in view (a virtualised list).
- Users see only what their eauth ACL (the \`perms\` of the login) allows: no Run button for a
  function the ACL refuses, no Keys page without \`@wheel\`, no Jobs page without \`@jobs\` or
  \`@runner\`, no Schedules page without \`schedule.list\`. The API checks every call itself
  whatever the page shows.
- Arguments use Salt's CLI syntax (\`a 1 k=v "two words"\`): split as a shell splits them and
  typed as the \`salt\` CLI types them (\`yamlify_arg\`: YAML 1.1 numbers, booleans, \`None\`,
  \`[..]\` lists, \`{..}\` maps), keywords sent as one \`__kwarg__\` map. "Copy as CLI command"
  gives the matching \`salt\` command line (with \`-b\` or \`--async\`).
- The function picker: *Functions* asks the target for \`sys.list_functions\` and offers the
  union as the function field's suggestions (every targeted minion answers, some 10 KB each:
  narrow the target first on a large fleet); *Doc* shows the function's argument spec
  (\`sys.argspec\`, written as a signature: \`cmd.run(cmd, cwd=null, ..., **kwargs)\`) and its
  \`sys.doc\`, asked of one minion that has it.
- Each minion's return appears as its \`salt/job/<jid>/ret/<id>\` event arrives, with its end
  state: *returned*; *failed* with its retcode; at the timeout, *did not return*, or *not
  connected* when \`manage.present\` says the minion is not connected. Returns print as Salt's
  nested outputter prints them, as JSON or YAML, and a state function's (the States page runs
  \`state.apply\`, or \`test=True\`) in the highstate view, failed states first. The summary
  counts every minion; the returns themselves show 200 at a time (failures first), with a
  button for more, so a 10,000-minion run stays quick.
- A batch size (\`10\` or \`25%\`, as \`salt -b\`) sends the run through salt-api's
  \`local_batch\` client (it must be in \`netapi_enable_clients\`). That client answers only when
  the last batch is done, so the page follows each batch's job on the event stream (a
  \`salt/job/<jid>/new\` of the same function and user on a \`list\` target) and shows its
  returns as they arrive; the client's answer settles the rest.
- Jobs are searched by function, target and user (case-insensitive text, or a glob with \`*\`)
  and by a date range (from, to, both days included; a job's day is its jid's).
- Schedules: \`schedule.list return_yaml=False\` on a target lists each minion's jobs with their
  function and timing; each can be disabled or enabled (\`schedule.disable_job\`,
  \`schedule.enable_job\`) and run now (\`schedule.run_job\`) on its minion. Salt has no runner
  that lists or changes the master's own \`schedule:\`, so the page shows minions' schedules only.
- A minion's pillar (\`pillar.items\` on that minion) shows obfuscated, one key revealed at a
  time. The Runners page runs \`manage.*\` and \`jobs.*\` runners. The token lives in the tab's
  \`sessionStorage\`; a refused token (expired, revoked) returns the page to the login form.
- Light and dark themes; every control is a native form element, usable with the keyboard.

## Pages

${shots.map((s) => `![${s.caption}](console/${s.file})\n\n*${s.caption}*\n`).join('\n')}
## Figures

Measured with \`node dist/bench/console-bench.js --count N\` (headless Chromium and a swarm of N
simulated minions, tools/swarm, on the master's machine: 2 shared cores, loaded by other work):

${FIGURES}

*Before*: the previous console, which read \`GET /minions\` whole (the last session's figures,
same bench and machine). *First row*: from the page's load until the first minion shows (the
first page of 2,000). *All listed*: until every minion is in the list (the pages, the keys and
\`manage.present\`). *Run*: from the click to the summary counting the last of the N
\`test.ping\` returns (the returns arrive as events; the page renders once per frame and shows
the first 200 returns). Medians of three; the machine's load (15–30) moves single runs by 2×.

## Bundle size

| file | bytes | gzip |
| --- | ---: | ---: |
${sizes.map((f) => `| ${f.name} | ${f.bytes} | ${f.gzip} |`).join('\n')}
| **total** | ${sizes.reduce((n, f) => n + f.bytes, 0)} | **${total} (${kb(total)})** |

Served gzipped to browsers that accept it.
`;
}

async function main(): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const { cluster: c, base } = await startConsoleCluster({
    quiet: true,
    states: {
      'demo.sls':
        'motd:\n  cmd.run:\n    - name: echo welcome\nmigrate:\n  cmd.run:\n    - name: echo "schema locked" >&2; exit 4\n',
    },
    pillar: {
      'top.sls': "base:\n  '*':\n    - app\n",
      'app.sls': 'db_password: s3cret\napp:\n  workers: 4\n  release: 1.4.2\n',
    },
    minions: () => [
      {
        id: 'web-01',
        config: {
          schedule: {
            backup: { function: 'cmd.run', args: ['true'], hours: 24 },
            logrotate: { function: 'cmd.run', args: ['true'], cron: '0 3 * * *' },
          },
        },
      },
      { id: 'db-01' },
      { id: 'pending-01', pending: true },
    ],
  });
  const browser = await launchBrowser({ width: 1100, height: 640 });
  try {
    const p = await browser.context.newPage();
    p.setDefaultTimeout(30_000);
    const shots = await drive(p, base);
    writeFileSync(join(DOCS, 'console.md'), page(shots, bundleSizes()));
    process.stdout.write(`console-shots: ${shots.length} screenshots, docs/console.md written\n`);
  } finally {
    await browser.close();
    await c.stop();
  }
}

await main();
