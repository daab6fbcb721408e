export { fileServerPlugin } from './file-server-plugin.js';
export { type FileServerConfig, fileHash, fileList, serveFile } from './roots.js';
