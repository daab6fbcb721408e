/**
 * The eauth back ends the netapi brings (Salt's `file`, `sharedsecret` and `pam`), registered
 * through the `netapi.eauth` kind like any other.
 */
import { fileAuthenticate } from './eauth-file.js';
import type { NetapiEauthDef } from './eauth-kind.js';
import { pamAuthenticate, pamOptions } from './eauth-pam.js';
import { safeEqual } from './password-hash.js';

export const BUILTIN_EAUTH: readonly NetapiEauthDef[] = [
  {
    name: 'file',
    checkPassword: ({ provider, username, password, log }) =>
      fileAuthenticate(provider, username, password, log),
  },
  {
    name: 'sharedsecret',
    async checkPassword({ config, password, log }) {
      const secret = config.sharedsecret;
      if (typeof secret !== 'string' || !secret) {
        log.error(
          { eauth: 'sharedsecret' },
          'eauth sharedsecret: the master option `sharedsecret` is not set',
        );
        return false;
      }
      return safeEqual(password, secret);
    },
  },
  {
    name: 'pam',
    checkPassword: ({ config, username, password, log }) =>
      pamAuthenticate(username, password, pamOptions(config.extra), log),
  },
];
