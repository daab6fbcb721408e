export {
  ALL_CLIENTS,
  type NetapiOptions,
  netapiConfigured,
  netapiOptions,
  netapiOptionsSchema,
} from './config.js';
export { buildNetapi, type NetapiHandle, startNetapi } from './server.js';
