// Only the plugin factory and the route kind's types: the master applies this plugin in every
// process, and the server, its options schema (zod) and its routes load in the netapi process.
export { netapiPlugin } from './netapi-plugin.js';
export type { NetapiCaller, NetapiRouteApi, NetapiRouteDef } from './route-kind.js';
