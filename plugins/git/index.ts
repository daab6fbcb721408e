// The git code gitfs and git_pillar share (a library both plugins import; not a plugin).
export { AUTH_PARAMS, authEnv, type GitAuth, GitAuthConfigError, transportOf } from './auth.js';
export { exportTree, type GitOptions, type GitRun, git } from './git.js';
export { type FetchOptions, GitMirror, type GitRef, withLock } from './mirror.js';
export { redactUrl } from './redact.js';
export { GitRefspecError } from './refspec-error.js';
export { DEFAULT_REFSPECS, mirrorRefspecs } from './refspecs.js';
export {
  paramString,
  RemoteEntryError,
  type RemoteParams,
  readRemoteEntry,
  repackDictlist,
  stripSaltPath,
} from './remote-params.js';
export { envExposed, exprMatch } from './saltenv-filter.js';
export { stringListSchema, toStringList } from './string-list.js';
