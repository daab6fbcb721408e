export {
  type BackoffPolicy,
  backoffDelay,
  DEFAULT_BACKOFF,
  nextFailureCount,
  RestartBackoff,
} from './backoff.js';
export {
  DEFAULT_CHILD_SHUTDOWN_MS,
  exitWhenParentDies,
  hasParent,
  installChildSignalHandlers,
  onParentMessage,
  type ParentWatchOptions,
  type ShutdownOptions,
  signalFatal,
  signalReady,
} from './child.js';
export { DAEMONIZED_ENV, daemonize, isDaemonized, stripDaemonFlags } from './daemonize.js';
export { type DirEntry, ensureDirs } from './dirs.js';
export {
  type ChildControlMessage,
  type FatalMessage,
  parseControlMessage,
  type ReadyMessage,
} from './ipc-messages.js';
export { describeExit } from './managed-child.js';
export { isProcessAlive, readPidfile, removePidfile, writePidfile } from './pidfile.js';
export { assertPortFree, formatAddress, freePort } from './ports.js';
export {
  type ChildSpec,
  type ExitInfo,
  type ManagedProcess,
  type ProcessLogger,
  ProcessManager,
  type ProcessManagerEvents,
  type ProcessManagerOptions,
  type ProcessState,
  type RestartInfo,
  type RestartPolicy,
} from './process-manager.js';
