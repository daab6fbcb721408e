/**
 * How a daemon's children learn their configuration: the parent passes the config dir and
 * the command-line overrides in `TSALT_BOOT`, and each child resolves the config itself
 * (plugins in a TS config are functions, which cannot cross a process boundary).
 */
export interface BootInfo {
  kind: 'master' | 'minion';
  configDir: string;
  overrides: Record<string, unknown>;
}

export const BOOT_ENV = 'TSALT_BOOT';

export function bootEnv(info: BootInfo): Record<string, string> {
  return { [BOOT_ENV]: JSON.stringify(info) };
}

export function readBoot(): BootInfo {
  const raw = process.env[BOOT_ENV];
  if (!raw) throw new Error(`${BOOT_ENV} is not set: this entry point is started by a tsalt daemon`);
  return JSON.parse(raw) as BootInfo;
}
