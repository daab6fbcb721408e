/**
 * Salt's `tls.get_extensions`: the `common` profile's extensions merged with a cert_type's
 * (`server`, `client` or one from pillar `tls.extensions:<type>`), for requests and certificates.
 */
import type { ExecContext } from '../kernel/index.js';

export interface ExtProfile {
  csr: Record<string, unknown>;
  cert: Record<string, unknown>;
}

const DEFAULTS: Readonly<Record<string, ExtProfile>> = {
  common: {
    csr: { basicConstraints: 'CA:FALSE' },
    cert: { authorityKeyIdentifier: 'keyid,issuer:always', subjectKeyIdentifier: 'hash' },
  },
  server: {
    csr: { extendedKeyUsage: 'serverAuth', keyUsage: 'digitalSignature, keyEncipherment' },
    cert: {},
  },
  client: {
    csr: { extendedKeyUsage: 'clientAuth', keyUsage: 'nonRepudiation, digitalSignature, keyEncipherment' },
    cert: {},
  },
};

const asProfile = (v: unknown): ExtProfile | undefined =>
  v && typeof v === 'object' ? (v as ExtProfile) : undefined;

/** The merged profile of `certType` ('' means server, as Salt logs and does). */
export async function extensionProfile(ctx: ExecContext, certType: string): Promise<ExtProfile> {
  let type = certType;
  if (type === '') {
    ctx.log.error('cert_type set to empty in tls_ca.get_extensions(); defaulting to ``server``');
    type = 'server';
  }
  const get = async (t: string): Promise<ExtProfile | undefined> =>
    asProfile(await ctx.call('pillar.get', [`tls.extensions:${t}`, false])) ?? DEFAULTS[t];
  const common = (await get('common')) ?? { csr: {}, cert: {} };
  const own = (await get(type)) ?? { csr: {}, cert: {} };
  return {
    csr: { ...(common.csr ?? {}), ...(own.csr ?? {}) },
    cert: { ...(common.cert ?? {}), ...(own.cert ?? {}) },
  };
}
