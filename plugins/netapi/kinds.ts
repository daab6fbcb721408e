/**
 * `tsalt/netapi`: the netapi's plugin kinds for a TypeScript package, REST routes
 * (`netapi.routes`) and eauth back ends (`netapi.eauth`), and the REST API's options. Importing
 * it merges both kinds into `PluginKinds` and the options into `MasterPluginOptions`, so
 * `api.kinds.register('netapi.routes', ...)` and `defineConfig({ rest_cherrypy: ... })` are typed.
 */
export type { EauthCheck, NetapiEauthDef } from './auth/eauth-kind.js';
export { netapiMasterOptions } from './options.js';
export type { NetapiCaller, NetapiRouteApi, NetapiRouteDef } from './route-kind.js';
