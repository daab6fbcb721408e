/**
 * Issue 19's pillar figure: compiling 1,000 minions' pillars with a realistic pillar_roots (a
 * top file with glob, grain, compound, list, pcre and nodegroup targets over 40 SLS files with
 * Jinja, includes and a few hundred keys each minion), in this process with the code the
 * master's request workers run for `_pillar` (plugins/pillar/compile.ts: top, SLS, merge; no
 * RSA, no transport). Reports the total and per-minion time and the memory it costs.
 * With `--functions` the compile has the master's `salt[...]` functions (as the master's
 * `_pillar` does); with `--calls` every minion's pillar also calls `grains.filter_by`,
 * `config.get` and `pillar.get` from its templates.
 * Standalone: `node dist/bench/pillar-bench.js [--count 1000] [--functions] [--calls]`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CompileEnv, compilePillar } from '../plugins/pillar/compile.js';
import { BUILTIN_EXT_PILLARS } from '../plugins/pillar/ext/builtins.js';
import { pillarOptions } from '../plugins/pillar/options.js';
import { masterPillarFunctions } from '../plugins/pillar/pillar-functions.js';

export interface PillarBenchResult {
  minions: number;
  totalMs: number;
  perMinionMs: number;
  jsonBytesPerMinion: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  heapUsedMiB: number;
}

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** A pillar tree as a platform team keeps one: common data, roles, environments, per-app secrets. */
function realisticTree(root: string, calls: boolean): void {
  const files: Record<string, string> = {};
  const roles = ['web', 'db', 'cache', 'queue', 'search'];
  const envs = ['prod', 'staging', 'dev'];
  let top = "base:\n  '*':\n    - common\n    - users\n";
  for (const r of roles) top += `  'role:${r}':\n    - match: grain\n    - roles.${r}\n`;
  for (const e of envs)
    top += `  'G@env:${e} and not G@role:cache':\n    - match: compound\n    - envs.${e}\n`;
  top += "  'minion-00*':\n    - canary\n  'minion-0001,minion-0002':\n    - match: list\n    - pinned\n";
  top +=
    "  '^minion-\\d*7$':\n    - match: pcre\n    - sevens\n  'dbs':\n    - match: nodegroup\n    - backup\n";
  if (calls) top += "  'minion-*':\n    - calls\n";
  files['top.sls'] = top;
  files['calls.sls'] = [
    "{% set family = salt['grains.filter_by']({'Debian': 'deb', 'RedHat': 'rh'}, grain='os') %}",
    'calls:',
    '  family: {{ family }}',
    "  id: {{ salt['config.get']('id') }}",
    "  level: {{ salt['pillar.get']('calls:level', 3) }}",
    '',
  ].join('\n');
  files['common.sls'] =
    "include:\n  - common.ntp\n  - common.dns\ncommon:\n  datacenter: {{ grains.get('dc', 'eu1') }}\n  packages:\n" +
    Array.from({ length: 40 }, (_, i) => `    - pkg${i}\n`).join('');
  files['common/ntp.sls'] = 'ntp:\n  servers: [0.pool.ntp.org, 1.pool.ntp.org, 2.pool.ntp.org]\n';
  files['common/dns.sls'] = 'dns:\n  nameservers: [10.0.0.2, 10.0.0.3]\n  search: [corp.example]\n';
  files['users.sls'] =
    'users:\n' +
    Array.from(
      { length: 60 },
      (_, i) =>
        `  user${i}:\n    uid: ${2000 + i}\n    shell: /bin/bash\n    groups: [staff, dev]\n    key: ssh-ed25519 AAAA${i}\n`,
    ).join('');
  for (const r of roles)
    files[`roles/${r}.sls`] =
      `{% set port = 8000 + ${roles.indexOf(r)} %}\n${r}:\n  port: {{ port }}\n  workers: {{ grains.get('num_cpus', 2) * 2 }}\n` +
      Array.from({ length: 30 }, (_, i) => `  setting${i}: value-${r}-${i}\n`).join('');
  for (const e of envs)
    files[`envs/${e}.sls`] =
      `env:\n  name: ${e}\n  secrets:\n${Array.from({ length: 20 }, (_, i) => `    s${i}: ${e}-secret-${i}\n`).join('')}`;
  files['canary.sls'] = 'canary: true\n';
  files['pinned.sls'] = 'pinned_version: 1.2.3\n';
  files['sevens.sls'] = 'lucky: true\n';
  files['backup.sls'] = 'backup:\n  schedule: daily\n  retention: 30\n';
  write(root, files);
}

const mib = (n: number): number => Math.round((n / 1048576) * 10) / 10;

export async function pillarBench(
  count = 1000,
  o: { functions?: boolean; calls?: boolean } = {},
): Promise<PillarBenchResult> {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-pillar-bench-'));
  try {
    realisticTree(root, o.calls === true);
    const quiet = () => undefined;
    const config = { pillar_roots: { base: [root] }, nodegroups: { dbs: 'G@role:db' } };
    const env: CompileEnv = {
      options: pillarOptions(config),
      extPillars: new Map(BUILTIN_EXT_PILLARS.map((d) => [d.name, d])),
      log: { error: quiet, warn: quiet, debug: quiet },
      functions:
        o.functions || o.calls
          ? masterPillarFunctions(config, {
              trace: quiet,
              debug: quiet,
              info: quiet,
              warn: quiet,
              error: quiet,
            })
          : undefined,
    };
    const roles = ['web', 'db', 'cache', 'queue', 'search'];
    const envs = ['prod', 'staging', 'dev'];
    const req = (i: number) => {
      const id = `minion-${String(i).padStart(4, '0')}`;
      return {
        id,
        grains: { id, role: roles[i % 5], env: envs[i % 3], num_cpus: 4, os: 'Debian', dc: 'eu1' },
        saltenv: null,
        pillarenv: null,
        pillarOverride: {},
        extraMinionData: {},
      };
    };
    // warm-up (module loading, the Jinja engine's first compile)
    await compilePillar(req(0), env);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    let keys = 0;
    const t0 = performance.now();
    // two at a time, as the master's two request workers on this machine would
    for (let i = 0; i < count; i += 2) {
      const out = await Promise.all([
        compilePillar(req(i), env),
        i + 1 < count ? compilePillar(req(i + 1), env) : undefined,
      ]);
      if (out[0]?._errors) throw new Error(`pillar errors: ${JSON.stringify(out[0]._errors)}`);
      keys += JSON.stringify(out[0]).length;
      if (i % 50 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
    const totalMs = performance.now() - t0;
    peak = Math.max(peak, process.memoryUsage().rss);
    return {
      minions: count,
      totalMs: Math.round(totalMs),
      perMinionMs: Math.round((totalMs / count) * 100) / 100,
      jsonBytesPerMinion: Math.round(keys / Math.ceil(count / 2)),
      rssBeforeMiB: mib(rssBefore),
      rssPeakMiB: mib(peak),
      heapUsedMiB: mib(process.memoryUsage().heapUsed),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--count');
  const count = at > 0 ? Number(process.argv[at + 1]) : 1000;
  const flags = { functions: process.argv.includes('--functions'), calls: process.argv.includes('--calls') };
  console.log(JSON.stringify(await pillarBench(count, flags), null, 2));
}
