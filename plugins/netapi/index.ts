export {
  ALL_CLIENTS,
  type NetapiOptions,
  netapiConfigured,
  netapiOptions,
  netapiOptionsSchema,
} from './config.js';
export { netapiPlugin } from './netapi-plugin.js';
