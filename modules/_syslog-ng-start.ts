/**
 * The options of Salt's `syslog_ng.start` (and the `syslog_ng.started` state): their argument
 * schema, in Salt's order, and the syslog-ng command-line switches they become.
 */
import { pyStr } from '../kernel/python/index.js';

/** `--key=value` when the value is given, `--key` when a flag is exactly true (Salt's `_add_*cli_param`). */
export function startParams(a: Record<string, unknown>, cfgfile: unknown): string[] {
  const params: string[] = [];
  const value = (key: string, v: unknown) => {
    if (v !== null && v !== undefined) params.push(`--${key}=${pyStr(v)}`);
  };
  const flag = (key: string, v: unknown) => {
    if (v === true) params.push(`--${key}`);
  };
  value('user', a.user);
  value('group', a.group);
  value('chroot', a.chroot);
  value('caps', a.caps);
  flag('no-capse', a.no_caps); // sic: Salt's spelling
  value('pidfile', a.pidfile);
  flag('enable-core', a.enable_core);
  value('fd-limit', a.fd_limit);
  flag('verbose', a.verbose);
  flag('debug', a.debug);
  flag('trace', a.trace);
  flag('yydebug', a.yydebug);
  value('cfgfile', cfgfile);
  flag('persist-file', a.persist_file); // sic: Salt passes it as a flag
  value('control', a.control);
  value('worker-threads', a.worker_threads);
  return params;
}

export const startArgs = (z: typeof import('zod').z) =>
  z.object({
    name: z.unknown().default(null),
    user: z.unknown().default(null),
    group: z.unknown().default(null),
    chroot: z.unknown().default(null),
    caps: z.unknown().default(null),
    no_caps: z.unknown().default(false),
    pidfile: z.unknown().default(null),
    enable_core: z.unknown().default(false),
    fd_limit: z.unknown().default(null),
    verbose: z.unknown().default(false),
    debug: z.unknown().default(false),
    trace: z.unknown().default(false),
    yydebug: z.unknown().default(false),
    persist_file: z.unknown().default(null),
    control: z.unknown().default(null),
    worker_threads: z.unknown().default(null),
  });
