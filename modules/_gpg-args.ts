/**
 * Argument shapes and the pillar passphrase shared by the functions of Salt's `gpg` module.
 */
import type { z as Zod } from 'zod';
import { type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';

/** A string; a YAML number (a keyid such as `12345678`) as Python's `str` gives it. */
export const optText = (z: typeof Zod) =>
  z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v === null || v === undefined ? v : pyStr(v)));

/** One key id or a list of them (a YAML number stays a number until Python's `str`). */
export const keyIds = (z: typeof Zod) =>
  z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]).nullish();

/** `user` and `gnupghome`, which every keyring function takes. */
export const keyring = (z: typeof Zod) => ({
  user: z.string().nullish(),
  gnupghome: z.string().nullish(),
});

export const USER_DOC =
  " user: whose keyring (default: the user the minion runs as; 'salt' means <config_dir>/gpgkeys); gnupghome: the keyring's directory.";

/** `pillar.get('gpg_passphrase')`; an empty or missing one is `null`. Never logged. */
export async function pillarPassphrase(ctx: ExecContext): Promise<string | null> {
  const v = await ctx.call('pillar.get', ['gpg_passphrase']);
  return v ? pyStr(v) : null;
}

/** Salt's raise when a function needs the pillar passphrase and there is none. */
export async function requirePassphrase(ctx: ExecContext): Promise<string> {
  const p = await pillarPassphrase(ctx);
  if (p === null) throw new SALT_ERR_INVOCATION('gpg_passphrase not available in pillar.');
  return p;
}
