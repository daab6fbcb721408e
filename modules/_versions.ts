/**
 * `test.versions_information` / `test.versions_report`: the versions of tsalt, Node, its
 * dependencies and the system, laid out as Salt's `salt.version.versions_report` does.
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SALT_COMPAT_VERSION, VERSION } from '../kernel/util.js';

/** Section name → component → version (`null` when not installed). */
export type VersionsInformation = Record<string, Record<string, string | null>>;

const DEPENDENCIES = ['commander', 'cosmiconfig', 'pino', 'tapable', 'yaml', 'zeromq', 'zod'] as const;

function packageVersion(name: string): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) {
      try {
        const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
        const version = (parsed as { version?: unknown }).version;
        return typeof version === 'string' ? version : null;
      } catch {
        return null;
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function osRelease(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of ['/etc/os-release', '/usr/lib/os-release']) {
    try {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
        if (m?.[1]) out[m[1]] = (m[2] ?? '').replace(/^(["'])(.*)\1$/, '$2');
      }
      return out;
    } catch {
      // try the next file
    }
  }
  return out;
}

function joinWords(...words: (string | undefined)[]): string {
  return words.filter((w) => w).join(' ');
}

/** Salt's `versions_information()`, with a Node section in place of Python's. */
export function versionsInformation(): VersionsInformation {
  const rel = osRelease();
  const deps: Record<string, string | null> = {};
  for (const name of DEPENDENCIES) deps[name] = packageVersion(name);
  deps.OpenSSL = process.versions.openssl ?? null;
  deps.libuv = process.versions.uv ?? null;
  return {
    'Salt Version': { Salt: SALT_COMPAT_VERSION, tsalt: VERSION },
    'Node Version': { Node: process.versions.node },
    'Dependency Versions': deps,
    'System Versions': {
      dist: joinWords(rel.ID, rel.VERSION_ID, rel.VERSION_CODENAME) || null,
      locale: 'utf-8',
      machine: os.machine(),
      release: os.release(),
      system: os.type(),
      version: joinWords(rel.NAME, rel.VERSION_ID, rel.VERSION_CODENAME) || null,
    },
  };
}

/** Salt's `versions_report()` lines: `Section:`, right-aligned `name: version` rows, `' '`. */
export function versionsReport(info: VersionsInformation = versionsInformation()): string[] {
  const notInstalled = 'Not Installed';
  let width = notInstalled.length;
  for (const section of ['Dependency Versions', 'System Versions']) {
    for (const name of Object.keys(info[section] ?? {})) width = Math.max(width, name.length);
  }
  const pad = width + 1;
  const lines: string[] = [];
  for (const [section, entries] of Object.entries(info)) {
    lines.push(`${section}:`);
    const names = Object.keys(entries).sort((a, b) => {
      const x = a.toLowerCase();
      const y = b.toLowerCase();
      return x < y ? -1 : x > y ? 1 : 0;
    });
    for (const name of names) lines.push(`${name.padStart(pad)}: ${entries[name] || notInstalled}`);
    lines.push(' ');
  }
  return lines;
}
