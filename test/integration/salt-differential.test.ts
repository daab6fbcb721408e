/**
 * The same command lines against tsalt and Salt 3006.18 (tools/salt-cli-cases.ts): tsalt's
 * answers (exit code, stdout, stderr, normalized) must be the ones recorded from real Salt in
 * test/fixtures/salt-cli/salt-3006.18.json, except the deliberate differences the cases list.
 * With TSALT_SALT_SRC pointing at a Salt v3006.18 source tree (REAL-SALT.md), the cases also
 * run live against real Salt, and its answers must still be the recorded ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPresence } from '../../kernel/bus/presence.js';
import { Cluster, runCli } from '../../tools/local-cluster.js';
import { type CliFixture, caseArgs, FIXTURE, runOnSalt } from '../../tools/record-salt-cli.js';
import { CLI_CASES, type CliCase, comparable } from '../../tools/salt-cli-cases.js';
import { type SaltReference, startSaltReference } from '../../tools/salt-reference.js';

const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as CliFixture;

/** What tsalt must answer: the recorded answer, with a listed deliberate difference applied. */
function expected(c: CliCase) {
  const recorded = fixture.cases[c.id];
  if (!recorded) throw new Error(`no recording for ${c.id}: run tools/record-salt-cli.ts`);
  const want = comparable(c, recorded);
  if (c.tsalt?.code !== undefined) want.code = c.tsalt.code;
  if (c.tsalt?.stdout !== undefined) want.stdout = c.tsalt.stdout;
  return want;
}

describe('tsalt answers the CLI cases as Salt 3006.18 did', () => {
  const c = new Cluster({ quiet: true });
  beforeAll(async () => {
    await c.startMaster();
    for (const id of ['m1', 'm2', 'm3']) await c.startMinion(id);
    // m3: a known minion (accepted key, cached grains) that is not running
    await c.minions.get('m3')!.stop();
    // ... and that the master knows is gone (its presence snapshot lags the disconnection)
    const cachedir = join(c.root, 'var/cache/salt/master');
    const gone = (): boolean => {
      const p = readPresence(cachedir);
      return p !== undefined && p.tracked.includes('m3') && !p.present.includes('m3');
    };
    // a loaded machine may take a while: wait up to a minute, and say so if it never happens
    for (let i = 0; i < 600 && !gone(); i++) await new Promise((r) => setTimeout(r, 100));
    if (!gone()) throw new Error("the master's presence snapshot never showed m3 as gone");
  }, 180_000);
  afterAll(() => c.stop());

  for (const cliCase of CLI_CASES) {
    it(`${cliCase.id} (item ${cliCase.item}): ${cliCase.cli} ${cliCase.args.join(' ')}`, async () => {
      const dirs = { master: c.confDir, minion: c.minionConfDir('m1') };
      const run = await runCli(cliCase.cli, caseArgs(cliCase, dirs), 60_000);
      expect(comparable(cliCase, run)).toEqual(expected(cliCase));
    });
  }
});

describe.skipIf(!process.env.TSALT_SALT_SRC)('real Salt still answers as recorded', () => {
  let ref: SaltReference;
  beforeAll(async () => {
    ref = await startSaltReference({ src: process.env.TSALT_SALT_SRC! });
  }, 300_000);
  afterAll(() => ref?.stop());

  for (const cliCase of CLI_CASES) {
    it(`${cliCase.id}`, async () => {
      const live = await runOnSalt(ref, cliCase);
      expect(comparable(cliCase, live)).toEqual(comparable(cliCase, fixture.cases[cliCase.id]!));
    });
  }
});
