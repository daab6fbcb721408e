// The file server plugin and what the runners and the minion's local file client build on.
export type { FileServerBackend, FileServerBackendDef, FileServerLog, ServedRoot } from './backend-kind.js';
export { fileServerPlugin } from './file-server-plugin.js';
export { FileServer, type FoundFile, type HashReply, type ServedChunk } from './fileserver.js';
export { gitfsBackend } from './gitfs.js';
export { BUILTIN_BACKENDS, fileServerRequest, localFileServer } from './local-channel.js';
export { type FileServerOptions, fileServerOptions } from './options.js';
export { cleanRelPath, parseFilePath, saltUrl } from './paths.js';
export { rootsBackend } from './roots.js';
