/**
 * `tsalt/services`: what a daemon offers the plugins that run in it, as the built-ins use it:
 * the PKI and its keys, minion presence, the minion data cache and target expansion, the master
 * bus and request clients, ZMTP PUSH/PULL between its processes, the job cache's returner calls,
 * and the unit loaders.
 */
export * from './auth/key-manager.js';
export * from './auth/pki.js';
export * from './bus/address.js';
export * from './bus/bus-client.js';
export * from './bus/event-bus.js';
export * from './bus/presence.js';
export * from './bus/req-client.js';
export * from './bus/zmtp/pull-server.js';
export * from './bus/zmtp/push-socket.js';
export * from './crypt/fingerprint.js';
export * from './crypt/rsa.js';
export * from './jobs/returner-calls.js';
export * from './loader/packages.js';
export * from './loader/scan.js';
export * from './runners/invoke.js';
export * from './runners/loader.js';
export * from './targeting/check-minions.js';
export * from './targeting/compound.js';
export * from './targeting/data-cache.js';
export * from './targeting/expected-minions.js';
export * from './targeting/match.js';
export * from './targeting/matchers.js';
export * from './targeting/nodegroups.js';
export * from './targeting/target-word.js';
