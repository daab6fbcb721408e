/**
 * `npm run bench [-- --quick] [-- --only cli,minion,stores,netapi,reactor,render,event-bus,swarm,file-server,pillar,states]`: the issues' figures,
 * measured on this machine with real processes on loopback, printed with their method and
 * written to bench-results[-quick].json. Never fails on a figure; leaves no process behind.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../tools/local-cluster.js';
import { details, figures, print } from './report.js';
import { cliSection } from './sections/cli.js';
import { eventBusSection } from './sections/event-bus.js';
import { fileServerSection } from './sections/file-server.js';
import { minionSection } from './sections/minion.js';
import { netapiSection } from './sections/netapi.js';
import { pillarSection } from './sections/pillar.js';
import { reactorSection } from './sections/reactor.js';
import { renderSection } from './sections/render.js';
import { statesSection } from './sections/states.js';
import { storesSection } from './sections/stores.js';
import { swarmSection } from './sections/swarm.js';

const SECTIONS: Record<string, (quick: boolean) => Promise<void>> = {
  cli: cliSection,
  minion: minionSection,
  stores: storesSection,
  netapi: netapiSection,
  reactor: reactorSection,
  render: renderSection,
  'event-bus': eventBusSection,
  swarm: swarmSection,
  'file-server': fileServerSection,
  pillar: pillarSection,
  states: statesSection,
};

const quick = process.argv.includes('--quick');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? (process.argv[onlyAt + 1] ?? '').split(',').filter(Boolean) : Object.keys(SECTIONS);
const unknown = only.filter((s) => !(s in SECTIONS));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown section(s) ${unknown.join(', ')}: choose from ${Object.keys(SECTIONS).join(', ')}\n`,
  );
  process.exit(2);
}

print(`tsalt benchmark (${quick ? 'quick' : 'full'}): medians with [min max] where repeated`);
print(`node ${process.version}, ${cpus().length} cores; sections: ${only.join(', ')}\n`);
for (const name of only) {
  print(`── ${name} ${'─'.repeat(70 - name.length)}`);
  try {
    await SECTIONS[name]!(quick);
  } catch (err) {
    print(`section ${name} failed: ${(err as Error).stack ?? String(err)}`);
  }
  print();
}

const out = join(REPO, `bench-results${quick ? '-quick' : ''}.json`);
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, quick, figures, details }, null, 2)}\n`,
);
print(`written to ${out}`);
