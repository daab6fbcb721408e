/**
 * Salt's `tls` state module (salt/states/tls.py): `tls.valid_certificate` succeeds when a
 * certificate is valid now and for at least the given time to come.
 */
import { SaltError } from '../kernel/index.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

/** Python's str(timedelta) for a non-negative number of seconds. */
export function pyTimedelta(seconds: number): string {
  const micro = Math.round(seconds * 1e6);
  const days = Math.floor(micro / 86_400_000_000);
  let rest = micro - days * 86_400_000_000;
  const h = Math.floor(rest / 3_600_000_000);
  rest -= h * 3_600_000_000;
  const m = Math.floor(rest / 60_000_000);
  rest -= m * 60_000_000;
  const s = Math.floor(rest / 1_000_000);
  const us = rest - s * 1_000_000;
  const clock = `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${us ? `.${String(us).padStart(6, '0')}` : ''}`;
  return days ? `${days} day${days === 1 ? '' : 's'}, ${clock}` : clock;
}

export default defineStateModule({
  name: 'tls',
  doc: 'Enforce state for SSL/TLS certificates (tls.valid_certificate).',
  functions: {
    valid_certificate: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          weeks: z.coerce.number().default(0),
          days: z.coerce.number().default(0),
          hours: z.coerce.number().default(0),
          minutes: z.coerce.number().default(0),
          seconds: z.coerce.number().default(0),
        }),
      doc: 'Verify that a certificate is valid now and for the given weeks, days, hours, minutes and seconds.',
      async run(ctx, a): Promise<StateReturn> {
        const ret: StateReturn = { name: a.name, changes: {}, result: false, comment: '' };
        const now = Date.now() / 1000;
        let info: Record<string, unknown>;
        try {
          info = (await ctx.call('tls.cert_info', [a.name])) as Record<string, unknown>;
        } catch (err) {
          if (!(err instanceof SaltError)) throw err;
          ctx.log.error(err.message);
          return { ...ret, comment: err.message.replace(/^\[Errno 2\]/, '[Errno 2]') };
        }
        if (now < Number(info.not_before)) return { ...ret, comment: 'Certificate is not yet valid' };
        if (now > Number(info.not_after)) return { ...ret, comment: 'Certificate is expired' };
        const remaining = Number(info.not_after) - now;
        const min =
          (a.weeks ?? 0) * 604_800 +
          (a.days ?? 0) * 86_400 +
          (a.hours ?? 0) * 3600 +
          (a.minutes ?? 0) * 60 +
          (a.seconds ?? 0);
        if (remaining < min) {
          return {
            ...ret,
            comment: `Certificate will expire in ${pyTimedelta(remaining)}, which is less than ${pyTimedelta(min)}`,
          };
        }
        return { ...ret, result: true, comment: `Certificate is valid for ${pyTimedelta(remaining)}` };
      },
    }),
  },
});
