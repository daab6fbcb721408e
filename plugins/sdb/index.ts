export { applySdb, holdsSdbUri } from './apply-config.js';
export { defineSdb, isSdbDriver, type SdbContext, type SdbDriver, type SdbProfile } from './define.js';
export { SALT_ERR_SDB_UNAVAILABLE, SALT_ERR_SDB_VALUE } from './errors.js';
export { BUILTIN_SDB_DRIVERS, findSdbDriver, sdbDirs, setProcessSdbKinds } from './find-driver.js';
export { sdbOptions } from './options.js';
export {
  isSdbUri,
  SDB_HASH_CHARS,
  sdbDelete,
  sdbGet,
  sdbGetOrSetHash,
  sdbProfile,
  sdbSet,
} from './sdb.js';
export { sdbPlugin } from './sdb-plugin.js';
