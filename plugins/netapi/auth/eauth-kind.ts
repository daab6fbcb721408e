/**
 * The `netapi.eauth` plugin kind: eauth back ends (Salt's `salt/auth/<name>.py`, loaded by
 * `LoadAuth`). A back end checks a password; which users it admits and what they may run come
 * from its `external_auth` block, as in Salt. The netapi registers `file`, `sharedsecret` and
 * `pam` (builtin-eauth.ts); a plugin adds one with
 * `api.kinds.register('netapi.eauth', { name: 'ldap', checkPassword(check) { ... } })`.
 */
import type { ResolvedMasterConfig } from '../../../kernel/index.js';
import type { AuthLog } from './eauth-file.js';

/** One login attempt, as a back end sees it. */
export interface EauthCheck {
  readonly username: string;
  readonly password: string;
  /** The back end's block under `external_auth` (users and groups with their permissions). */
  readonly provider: Readonly<Record<string, unknown>>;
  readonly config: ResolvedMasterConfig;
  readonly log: AuthLog;
}

/** An eauth back end. */
export interface NetapiEauthDef {
  /** The name `eauth` takes in a login and `external_auth` keys. */
  readonly name: string;
  /** Whether `password` is right for `username`; a throw denies (and is logged). */
  checkPassword(check: EauthCheck): Promise<boolean>;
}

declare module '../../../kernel/kinds.js' {
  interface PluginKinds {
    'netapi.eauth': NetapiEauthDef;
  }
}
