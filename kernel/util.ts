/**
 * `tsalt/util`: the kernel's small helpers that units and plugins use as the built-ins do:
 * Salt's msgpack serial, jids, Python-style repr and values, glob matching, minion-id checks,
 * job arguments and retcodes, registries, the logger type and the version.
 */
export * from './auth/minion-id.js';
export * from './config/salt-yaml.js';
export { PY_HASH_NAMES } from './crypt/fingerprint.js';
export * from './jid.js';
export * from './jobs/args.js';
export * from './jobs/retcode.js';
export * from './jobs/returner-options.js';
export type { Logger } from './log.js';
export * from './python/index.js';
export * from './registry.js';
export * from './serial/index.js';
export * from './serial/is-string-map.js';
export * from './targeting/glob.js';
export * from './targeting/py-regex.js';
export { isDict, traverseDictAndList } from './targeting/traverse.js';
export * from './version.js';
