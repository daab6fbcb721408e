/**
 * A throwaway network namespace for the iptables tests: its own (empty) tables and loopback, so
 * the tests never touch the host's. `ip netns add` needs CAP_SYS_ADMIN; where it fails the
 * namespace says why, and the tests skip with that reason.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { REPO, type RunResult, runCommand } from '../../tools/local-cluster.js';

export class IptablesNetns {
  readonly name = `tsalt-ipt-${randomBytes(4).toString('hex')}`;
  /** Why no namespace could be made (`ip` missing, no rights), or null when it exists. */
  readonly unavailable: string | null;

  constructor() {
    let why: string | null = null;
    try {
      execFileSync('ip', ['netns', 'add', this.name], { stdio: ['ignore', 'ignore', 'pipe'] });
      execFileSync('ip', ['-n', this.name, 'link', 'set', 'lo', 'up'], { stdio: 'ignore' });
      execFileSync('iptables-save', ['--version'], { stdio: 'ignore' });
    } catch (err) {
      const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
      why = `cannot make a network namespace for the iptables tests (ip netns add): ${stderr || String(err)}`;
      this.remove();
    }
    this.unavailable = why;
  }

  /** The argv that runs `cmd args` inside the namespace (`ip netns exec`). */
  argv(cmd: string, args: readonly string[]): string[] {
    return ['netns', 'exec', this.name, cmd, ...args];
  }

  /** Runs a compiled tsalt CLI (`dist/cli/<cli>.js`) inside the namespace. */
  cli(cli: string, args: readonly string[], timeoutMs = 60_000): Promise<RunResult> {
    return runCommand(
      'ip',
      this.argv(process.execPath, [join(REPO, 'dist/cli', `${cli}.js`), ...args]),
      timeoutMs,
    );
  }

  /** `iptables-save` (or `ip6tables-save`) of the namespace's tables. */
  save(family: 'ipv4' | 'ipv6' = 'ipv4'): string {
    const prog = family === 'ipv6' ? 'ip6tables-save' : 'iptables-save';
    return execFileSync('ip', this.argv(prog, []), { encoding: 'utf8' });
  }

  /** Deletes the namespace (and so its tables); safe to call twice. */
  remove(): void {
    try {
      execFileSync('ip', ['netns', 'del', this.name], { stdio: 'ignore' });
    } catch {
      // already gone, or never made
    }
  }
}
