// The git code gitfs and git_pillar share (a library both plugins import; not a plugin).
export { AUTH_PARAMS, authEnv, type GitAuth, GitAuthConfigError, transportOf } from './auth.js';
export { exportTree, type GitOptions, type GitRun, git } from './git.js';
export { GitMirror, type GitRef, withLock } from './mirror.js';
export { redactUrl } from './redact.js';
export {
  paramString,
  RemoteEntryError,
  type RemoteParams,
  readRemoteEntry,
  repackDictlist,
  stripSaltPath,
} from './remote-params.js';
