/**
 * The persistence half of Salt's `kmod` module: the modules file the system loads at boot
 * (`/etc/modules-load.d/salt_managed.conf` under systemd, else `/etc/modules`), the module
 * names it lists, and adding, uncommenting, commenting or removing a module's line.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Salt's `_get_modules_conf`. */
export function modulesConf(grains: Readonly<Record<string, unknown>>): string {
  return 'systemd' in grains ? '/etc/modules-load.d/salt_managed.conf' : '/etc/modules';
}

/** The module name of a modules-file line (`bonding mode=4` is `bonding`), or '' for a blank one. */
export function moduleName(line: string): string {
  return line.trim().split(/\s+/)[0] ?? '';
}

const reEscape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** The names of the modules the file loads at boot (`kmod.mod_list True`), sorted. */
export async function persistentModules(conf: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(conf, 'utf8');
  } catch {
    return [];
  }
  const names = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const name = moduleName(line);
    if (!line.startsWith('#') && name) names.add(name);
  }
  return [...names].sort();
}

/** Adds `mod` (a name and its options) to the modules file, or uncomments its line. */
export async function addPersistent(conf: string, mod: string): Promise<void> {
  if (!existsSync(conf)) {
    await mkdir(path.dirname(conf), { recursive: true });
    await writeFile(conf, '');
  }
  const text = await readFile(conf, 'utf8');
  const commented = new RegExp(`^#[\\t ]*${reEscape(mod)}[\\t ]*$`, 'm');
  if (commented.test(text)) {
    const lines = text.split('\n').map((l) => (commented.test(l) ? l.replace(/^#[\t ]*/, '') : l));
    await writeFile(conf, lines.join('\n'));
  } else await appendFile(conf, `${text === '' || text.endsWith('\n') ? '' : '\n'}${mod}\n`);
}

/** Comments out (or, `comment` false, deletes) `mod` at the start of its line. */
export async function removePersistent(conf: string, mod: string, comment: boolean): Promise<void> {
  const text = await readFile(conf, 'utf8');
  const at = new RegExp(`^[\\t ]*${reEscape(mod)}[\\t ]?`);
  const lines = text.split('\n').map((l) => (at.test(l) ? (comment ? `#${l}` : l.replace(at, '')) : l));
  await writeFile(conf, lines.join('\n'));
}
